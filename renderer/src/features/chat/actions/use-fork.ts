import { useChatStore, useThread } from '../../../app/model-context.js';

/** chat.fork, then the new conversation opened (listed first, so its title shows at once). */
export function useFork(): (turnId: string, message?: string) => Promise<boolean> {
  const fork = useThread((state) => state.fork);
  const chat = useChatStore();
  return async (turnId, message) => {
    const id = await fork(turnId, message);
    if (!id) return false;
    await chat.getState().load();
    await chat.getState().select(id);
    return true;
  };
}
