import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { pickTransport } from './api/transport.js';
import { App } from './app/app.js';
import { createAppModel } from './app/app-model.js';
import { ModelProvider } from './app/model-context.js';
import { VoiceProvider } from './features/voice/voice-context.js';

// The transport (and with it the one-time token exchange) is settled before React renders,
// so StrictMode's double effects can never post the token twice.
const transport = await pickTransport();
const model = createAppModel(transport);
window.addEventListener('pagehide', () => model.dispose());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ModelProvider model={model}>
      <VoiceProvider store={model.voice}>
        <App />
      </VoiceProvider>
    </ModelProvider>
  </StrictMode>,
);
