// The panel and the languages for tests in jsdom, straight from the sources: the panel is in memory, so
// it mounts in the same task as the click that asks for it (as it does in a browser once prefetched).
import type { Chunks } from '../../src/widget/embedding/chunks';
import { panelModule } from '../../src/widget/panel';

/** Each built-in language's dictionary, as its file next to widget.js would announce it. */
const dictionaries = import.meta.glob<{ default: unknown }>('../../src/widget/i18n/locales/*.ts');

export const sourceLanguage = async (code: string): Promise<unknown> =>
  (await dictionaries[`../../src/widget/i18n/locales/${code}.ts`]?.())?.default;

/** As a bundler user has them: the panel, and no language files (the owner passes a dictionary in `strings`). */
export const bundlerChunks: Chunks = { panel: () => panelModule };

/** As the script tag and the iframe page have them: the panel and the language files next to the script. */
export const testChunks: Chunks = { panel: () => panelModule, language: sourceLanguage };

/** The script tag's, with the language files missing: the widget speaks English. */
export const noLanguageChunks: Chunks = { panel: () => panelModule, language: async () => undefined };
