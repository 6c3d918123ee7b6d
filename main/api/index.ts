export * from './contract.js';
export * from './define.js';
export * from './dispatcher.js';
export * from './client.js';
export * from './events.js';
export * from './channels.js';
