// The one dictionary of visible text: the shell and chat strings here, the booking flow's spread in.
// English is built in; init({ strings }) overrides any key. "{name}" placeholders go through ./format.
import { bookingStrings } from './booking-strings';
import { launcherStrings } from './launcher-strings';

export const shellStrings = {
  ...launcherStrings,
  defaultGreeting: 'Hi! How can we help?',
  newConversation: 'New conversation',
  sections: 'Sections',
  tabChat: 'Chat',
  tabBook: 'Book',
  tabLookup: 'My booking',
  conversation: 'Conversation',
  you: 'You:',
  agentSaid: '{title}:',
  typing: '{title} is typing…',
  /** Under the typing indicator once a reply has taken STILL_WORKING_MS. */
  stillWorking: '{title} is still working on a reply…',
  messageLabel: 'Message',
  messagePlaceholder: 'Type your message…',
  send: 'Send',
  sources: 'Sources',
  jumpToNew: 'New messages',
  earlierMessages: 'Show earlier messages',
  chatRetry: 'Retry',
  chatOffline: 'Not sent: you seem to be offline. It will be sent again when you are back online.',
  chatUnreachable: "We can't reach the chat service right now. Your message was not sent.",
  chatFailed: 'Something went wrong. Your message was not sent.',
  chatTimedOut: 'No answer came in time. Your message was not sent.',
  // A count's forms are named by Intl.PluralRules categories (./format `plural`); `other` is the fallback.
  chatBusy: 'one: We are busy right now. Retrying in {count} second. | other: We are busy right now. Retrying in {count} seconds.',
  chatBusyAnnounce: 'We are busy right now. Your message will be sent again automatically.',
  chatStillBusy: 'Still busy. Please try again in a moment.',
  chatUnavailable: 'Chat is unavailable right now. You can still book a time.',
  chatOpenBooking: 'Book a time',
  chatMisconfigured: 'Chat is not available on this site right now.',
  chatTooLong: 'That message is too long. Please shorten it and send it again.',
  chatEmpty: 'Please type a message first.',
  chatInvalid: 'That message could not be sent. Please check it and try again.',
  chatStop: 'Stop',
  chatStopped: 'Stopped.',
  chatInterrupted: 'You left the page before the reply came.',
  chatCleared: 'Conversation cleared.',
  chatUndo: 'Undo',
  starters: 'Suggested questions',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  // Not shown: what, in a visitor's message or a reply, offers Book a time. |-separated, each found in
  // the text's words (any case, punctuation read as a space); a leading space, at a word's start, so
  // "appointment" is not found in "disappointment". Empty: never.
  bookingPhrases: ' book a | book an | to book| i book| booking| appointment| reservation| reserve a| schedule a ',
};

export const defaultStrings = { ...shellStrings, ...bookingStrings };

export type Strings = typeof defaultStrings;
export type StringKey = keyof Strings;

/** The entries of `given` that are known keys holding text, and the names of the others. */
export const pickStrings = (given: Record<string, unknown>): [Partial<Strings>, string[]] => {
  const picked: Record<string, string> = {};
  const rejected: string[] = [];
  for (const [key, text] of Object.entries(given)) {
    if (Object.hasOwn(defaultStrings, key) && typeof text === 'string') picked[key] = text;
    else rejected.push(key);
  }
  return [picked, rejected];
};
