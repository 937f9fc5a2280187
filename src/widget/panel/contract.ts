// What passes between the loader (widget.js, ../embedding) and the panel (its own file, ./index): the
// loader draws the launcher and owns the page-facing API; the panel draws everything behind the launcher.
// Types only: the loader never imports the panel's code, it receives it (../embedding/chunks).
import type { Strings } from '../i18n';
import type { PanelInput, ResolvedOptions, View } from '../options/options';
import type { PanelOptions } from '../options/panel-options';
import type { Emitter } from '../platform/events';

/** The loader's launcher as the panel drives it (bubble mode; an inline panel has none). */
export interface LauncherControl {
  /** aria-expanded and the icon follow the panel. */
  setOpen(open: boolean): void;
  /** Replies the visitor has not seen; undefined for none. */
  setUnread(count: number | undefined): void;
  focus(): void;
}

export interface PanelHost {
  /** The element the panel renders into, inside the loader's root element (which carries lang and dir). */
  container: HTMLElement;
  options: ResolvedOptions;
  /** The options only the panel uses, as readPanelOptions read them. */
  panelOptions: PanelOptions;
  emitter: Emitter;
  now: () => number;
  /** The text: English with the language's dictionary and the owner's known strings on top. */
  strings: Strings;
  /** The language of `strings` (BCP 47). */
  lang: string;
  /** Bubble mode only. */
  launcher: LauncherControl | undefined;
  /** Set when the loader has already opened (and announced) the panel on this view: the panel starts open. */
  openOn: View | undefined;
  /** Focus moves into the view once drawn: it was in the loader's stand-in panel. */
  focus: boolean;
}

export interface PanelHandle {
  open(view?: View): void;
  close(): void;
  toggle(): void;
  /** Forgets the visitor's stored conversation, booking codes and id. */
  reset(): void;
  /** New text (the language arrived after the panel). */
  speak(strings: Strings, lang: string): void;
  destroy(): void;
}

/** What the panel's file hands the loader. */
export interface PanelModule {
  /** The options only the panel uses, and the owner's strings the dictionary knows; the console names what could not be used. */
  readPanelOptions(input: PanelInput): PanelOptions;
  /** The English dictionary, for the loader to lay the language and the owner's texts over. */
  defaultStrings: Strings;
  mountPanel(host: PanelHost): PanelHandle;
  /**
   * Whether the owner's teaser `text` may be shown to this visitor: not offered to them before (a note in
   * the visitor's storage, kept 30 days). Noted as offered when it may.
   */
  claimTeaser(options: Pick<ResolvedOptions, 'agentId' | 'persist'>, text: string, env: { win: Window; now: () => number }): boolean;
  /** The panel's styles, adopted by the widget's shadow root when the code arrives (not in the first open's task). */
  css: string;
  /**
   * The view the bubble's panel was open on when the visitor left the previous page of this site in this
   * tab, with a conversation, a draft or a booking under way; undefined when it should stay closed.
   */
  resumeView(options: Pick<ResolvedOptions, 'agentId' | 'persist'>, env: { win: Window; now: () => number }): View | undefined;
  /** Builds the formatters the first open and the first calendar use, when the browser is idle; the returned function stops it. */
  warmUp(win: Window, locale: string): () => void;
}
