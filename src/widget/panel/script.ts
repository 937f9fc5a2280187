// The panel's file next to widget.js (chunks/panel.<hash>.js): a classic script that hands the panel, and
// the list of its build's language files, to the loader that added it (../embedding/script-files).
import { languages } from 'virtual:agent-widget/languages';
import { announceChunk } from '../embedding/announce';
import type { PanelFile } from '../embedding/script-files';
import { panelModule } from '.';

const announced: PanelFile = { panel: panelModule, languages };
announceChunk(announced);
