// embed.js, loaded by embed.html: the frame's logic is in ../embedding/frame; the panel and the languages
// come from embed.js's own folder.
import { createChunks } from 'virtual:agent-widget/chunks';
import { startFrame } from '../embedding/frame';

startFrame(window, createChunks(window, document.currentScript));
