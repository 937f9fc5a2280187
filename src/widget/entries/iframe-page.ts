// dist/embed.js, loaded by dist/embed.html: the whole logic is in ./frame.
import { startFrame } from '../embedding/frame';

startFrame(window);
