// Side-effect CSS imports (`import './voice.css'`) are bundled by Vite; TypeScript only needs to know they exist.
declare module '*.css';
