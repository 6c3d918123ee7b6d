import { createContext, useContext } from 'react';
import type { Screen } from './navigation.js';

/** Lets a screen send the person to another one (e.g. the voice button's "Open Settings"). */
export const NavigateContext = createContext<(screen: Screen) => void>(() => {});

export function useNavigate(): (screen: Screen) => void {
  return useContext(NavigateContext);
}
