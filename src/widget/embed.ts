// dist/embed.js, loaded by dist/embed.html: the whole logic is in ./frame.
import { startFrame } from './frame';

startFrame(window);
