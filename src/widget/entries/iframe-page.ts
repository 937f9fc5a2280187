// dist/embed.js, loaded by dist/embed.html: the whole logic is in ./frame.
import { startFrame } from '../embedding/frame';

// embed.js is a classic script: currentScript is it while this runs, and its languages are next to it.
startFrame(window, window.parent, (document.currentScript as HTMLScriptElement | null)?.src);
