// Window tests call a real dispatcher in-process (in-process-daemon.ts) and expect an answer within one
// act() or one advance of fake timers. The daemon builds an API domain's schemas on its first call, through
// a dynamic import that neither can hurry, so every renderer test file loads them all up front.
import { loadApiContract } from '../../../main/api/contract.js';

await loadApiContract();
