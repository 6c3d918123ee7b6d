/** The Electron binary's path, or why there is none (scripts/electron-binary.mjs). */
export declare function findElectronBinary(): { path: string; reason?: undefined } | { path?: undefined; reason: string };
