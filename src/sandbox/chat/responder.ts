// A deterministic responder: the article whose keywords the question matches most, a greeting,
// or a fallback that suggests booking. Same question, same answer.
import type { ChatSource } from '../../core/types';
import { ARTICLES, FALLBACK, GREETING, MARKDOWN_SAMPLE, type Article } from './knowledge';

/** Test hook: a message exactly equal to this returns MARKDOWN_SAMPLE. */
export const MARKDOWN_TEST_MESSAGE = '/markdown-test';

export interface Reply {
  reply: string;
  sources?: ChatSource[];
  /** The article the reply came from. */
  articleId?: string;
}

const GREETING_WORDS = new Set(['hi', 'hello', 'hey', 'hiya', 'good morning', 'good afternoon', 'good evening']);

function score(article: Article, text: string, words: ReadonlySet<string>): number {
  return article.keywords.filter((k) => (k.includes(' ') ? text.includes(k) : words.has(k))).length;
}

export function respond(message: string): Reply {
  if (message.trim() === MARKDOWN_TEST_MESSAGE) return { reply: MARKDOWN_SAMPLE };
  const text = message
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (GREETING_WORDS.has(text)) return { reply: GREETING };
  const words = new Set(text.split(' '));
  let best: Article | undefined;
  let bestScore = 0;
  for (const article of ARTICLES) {
    const s = score(article, text, words);
    if (s > bestScore) {
      best = article;
      bestScore = s;
    }
  }
  if (!best) return { reply: FALLBACK };
  return { reply: best.answer, sources: [{ title: best.title, url: best.url }], articleId: best.id };
}
