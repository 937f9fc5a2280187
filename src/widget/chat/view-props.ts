// What the chat view and its parts (rows, composer) are given.
import type { Strings } from '../i18n';
import type { Chat } from './store';

export interface ChatViewProps {
  chat: Chat;
  strings: Strings;
  title: string;
  greeting: string;
  locale: string;
  now: () => number;
  /** The view is on screen (panel open, tab selected). */
  visible: boolean;
  openBooking: () => void;
  /** The owner's questions, offered while the conversation is empty. */
  starters: readonly string[];
}
