// The same probe, with the same wording, as `npm start`: it never calls require('electron') while the
// binary is missing, because that starts a download from github.com.
export { findElectronBinary } from '../../scripts/electron-binary.mjs';
