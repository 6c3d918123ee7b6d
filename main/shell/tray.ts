// Tray: the computer-use switch with its live state (computer-use-state.ts), Open, Quit. Only draws.
import { Menu, Tray, nativeImage } from 'electron';
import type { ComputerUseTrayState } from './computer-use-state.js';

export interface TrayOptions {
  iconPath: string;
  state: ComputerUseTrayState;
  onOpen(): void;
  onQuit(): void;
}

/** Returns undefined when the desktop has no tray (some Linux sessions); the caller then quits with the window. */
export function createTray(options: TrayOptions): Tray | undefined {
  let tray: Tray;
  try {
    const icon = nativeImage.createFromPath(options.iconPath);
    // macOS draws template images in the menu bar's colour; the file name marks it (trayTemplate.png).
    if (process.platform === 'darwin') icon.setTemplateImage(true);
    tray = new Tray(icon);
  } catch {
    return undefined;
  }
  const render = () => {
    const { state } = options;
    tray.setToolTip(`Fermix — ${state.label()}`);
    // Linux only picks up menu changes through a new setContextMenu, so rebuild the whole menu.
    tray.setContextMenu(Menu.buildFromTemplate([
      { label: state.label(), enabled: false },
      { label: state.toggleLabel(), click: () => void state.toggle() },
      { type: 'separator' },
      { label: 'Open Fermix', click: options.onOpen },
      { label: 'Quit Fermix', click: options.onQuit },
    ]));
  };
  render();
  // Every change redraws: the window's /pause, an enable from the Plugins card, the CLI, this menu.
  options.state.onChange(render);
  tray.on('click', options.onOpen);
  return tray;
}
