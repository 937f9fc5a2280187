// Mounts one widget, as the loader (widget.js) does it: a host element of our own with an open shadow
// root, the launcher drawn at once with DOM calls, and the panel's code (../panel) asked for on the
// visitor's first intent (pointer over, focus or touch on the launcher, open()) or when the browser is
// idle after the page's load. Until it arrives, open() shows a stand-in panel at once, and the other calls
// wait and are honoured in order. The script tag, <agent-widget>, the iframe page and bundler users all
// come through here; each brings its own Chunks.
import { textDirection } from '../i18n/direction';
import { languageOf, layerTexts, spokenLanguage } from '../i18n/languages';
import { launcherStrings, type LauncherStrings } from '../i18n/launcher-strings';
import { element, setAttributes } from '../launcher/dom';
import { FULL_SCREEN_QUERY } from '../launcher/full-screen';
import { createLauncher, type Launcher } from '../launcher/launcher';
import launcherCss from '../launcher/launcher.css?inline';
import { createPlaceholder, type Placeholder } from '../launcher/placeholder';
import { readOptions, type ResolvedOptions, type View, type WidgetOptions } from '../options/options';
import { adoptStyles, hostCss } from '../options/theme';
import type { PanelOptions } from '../options/panel-options';
import type { PanelHandle, PanelModule } from '../panel/contract';
import { whenIdle } from '../platform/idle';
import { listen } from '../platform/listen';
import { createEmitter, panelError, type Emitter, type Handler, type WidgetEvent } from '../platform/events';
import { VERSION } from '../platform/version';
import type { Chunks } from './chunks';

export interface WidgetHandle {
  open(view?: View): void;
  close(): void;
  toggle(): void;
  on<K extends WidgetEvent>(type: K, handler: Handler<K>): () => void;
  /** Forgets the visitor's stored conversation, booking codes and id. */
  reset(): void;
  destroy(): void;
  readonly version: string;
}

/** The panel's code, and the options it read when it arrived. */
interface LoadedPanel {
  module: PanelModule;
  panelOptions: PanelOptions;
}

export interface MountDeps {
  /** Where the panel and the languages come from. */
  chunks: Chunks;
  /** Shared with the global API, so handlers added before init() hear `ready`. */
  emitter?: Emitter;
  /** Injected clock (epoch ms) for storage stamps and countdowns. */
  now?: () => number;
  /** The owner's element that holds the shadow root (<agent-widget>) instead of a <div> of ours. */
  host?: HTMLElement;
}

/**
 * Validates `options` (a console error and undefined when unusable) and mounts into `container`:
 * document.body for the floating bubble, or the element an inline panel should fill.
 */
export function mountWidget(container: Element, options: WidgetOptions, deps: MountDeps): WidgetHandle | undefined {
  const resolved = readOptions(options, container.ownerDocument);
  return resolved ? mountResolved(container, resolved, deps) : undefined;
}

export function mountResolved(container: Element, options: ResolvedOptions, deps: MountDeps): WidgetHandle {
  const doc = container.ownerDocument;
  const win = doc.defaultView ?? window;
  const { chunks, now = Date.now, emitter = createEmitter(), host: ownerHost } = deps;
  const { agentId, title } = options;
  const bubble = options.mode === 'bubble';
  const code = languageOf(options.locale);

  // Ours goes in at once, last in the container (a bubble's: last in <body>).
  const host = ownerHost ?? container.appendChild(doc.createElement('div'));
  if (!ownerHost) host.setAttribute('data-agent-widget', '');
  // A remounted element keeps its shadow root: attachShadow works once per element.
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  adoptStyles(root, hostCss(options, !!ownerHost) + launcherCss);
  // title="": an <agent-widget title="…"> host must not turn its title into a tooltip over the panel.
  const app = element(doc, 'div', { class: `aw aw--${options.position} aw--${options.mode}`, title: '' });
  // The panel renders here (display: contents), after the launcher: Preact owns this element's children only.
  const panelRoot = element(doc, 'div', { class: 'panel-root' });
  root.append(app);

  /** The language's dictionary once it has arrived; undefined: English (or not arrived yet). */
  let dictionary: unknown;
  /** The text the loader draws. */
  let texts: LauncherStrings = launcherStrings;
  /** The language of the text: the root's lang and dir follow it, not the page's. */
  let lang = 'en';
  const speak = () => {
    texts = layerTexts(launcherStrings, dictionary, options.strings);
    lang = spokenLanguage(options, code, { arrived: dictionary !== undefined, fetches: !!chunks.language });
    setAttributes(app, { lang, dir: textDirection(lang) });
    launcher?.speak(texts);
    placeholder?.speak(texts);
    if (panel && loaded) panel.speak(panelStrings(loaded), lang);
  };

  /** The panel's code once it has arrived (it may wait, unmounted, for the first open), and the options it read. */
  let loaded: LoadedPanel | undefined;
  let panel: PanelHandle | undefined;
  let placeholder: Placeholder | undefined;
  /** The view the stand-in stands for: what the panel opens on when it arrives. */
  let openView: View = options.view;
  /** Calls waiting for the panel, in order. */
  let waiting: ((panel: PanelHandle) => void)[] = [];
  /** What waits for the panel's code only (the teaser's check), not for the panel to be drawn. */
  let waitingForCode: ((module: PanelModule) => void)[] = [];
  /** The language's file: not needed (English, or none to fetch), asked for, or settled (arrived or not). */
  let language: 'none' | 'asked' | 'settled' | undefined = chunks.language && code !== 'en' ? undefined : 'none';
  let destroyed = false;
  let stopWarmUp: (() => void) | undefined;

  const launcher: Launcher | undefined = bubble
    ? createLauncher({ parent: app, title, strings: texts, onToggle: () => handle.toggle(), onIntent: () => request() })
    : undefined;
  app.append(panelRoot);

  /** English with the language's and the owner's texts on top, key by key where each is text. */
  const panelStrings = ({ module, panelOptions }: LoadedPanel) => layerTexts(module.defaultStrings, dictionary, panelOptions.strings);

  /** Draws the panel in panelRoot, open on `openOn` when given (the loader announced that open already). */
  const mountPanel = (code: LoadedPanel, openOn: View | undefined, focus: boolean): PanelHandle => {
    placeholder?.destroy();
    placeholder = undefined;
    const { panelOptions } = code;
    const mounted = code.module.mountPanel({
      container: panelRoot,
      options,
      panelOptions,
      emitter,
      now,
      strings: panelStrings(code),
      lang,
      launcher,
      openOn,
      focus,
    });
    panel = mounted;
    for (const call of waiting.splice(0)) call(mounted);
    return mounted;
  };

  /**
   * Draws the panel once its code (and the visitor's language, so no English shows first) is here, if
   * anything wants it: the stand-in (the panel opens on its view) or calls waiting.
   */
  const mountWhenReady = () => {
    if (destroyed || panel || !loaded || language === undefined || language === 'asked') return;
    if (placeholder) mountPanel(loaded, openView, placeholder.element.contains(root.activeElement));
    else if (waiting.length) mountPanel(loaded, undefined, false);
  };

  /** The panel's code is here: it reads its options (and checks the owner's strings against its dictionary). */
  const arrive = (module: PanelModule) => {
    if (destroyed || loaded) return;
    loaded = { module, panelOptions: module.readPanelOptions(options.panelInput) };
    adoptStyles(root, module.css, true);
    stopWarmUp = module.warmUp(win, options.locale);
    for (const call of waitingForCode.splice(0)) call(module);
    // Open when the visitor left the previous page of the site, with something under way: open here too.
    const resumed = launcher && !placeholder ? module.resumeView(options, { win, now }) : undefined;
    if (resumed) openBeforePanel(resumed, false);
    else mountWhenReady();
  };

  const failed = (error: unknown) => {
    if (destroyed) return;
    emitter.emit('error', panelError(agentId, error));
    placeholder?.setFailed(true);
  };

  /** Asks for the panel's code and the language's, unless here or on the way; after a failure, anew. */
  function request(): void {
    if (destroyed || loaded) return;
    if (chunks.language && language === undefined) {
      language = 'asked';
      void chunks.language(code).then((arrived) => {
        if (destroyed) return;
        // Not arrived while the panel did not either: asked again with it.
        language = arrived === undefined && !loaded ? undefined : 'settled';
        if (arrived === undefined) return mountWhenReady();
        dictionary = arrived;
        speak();
        mountWhenReady();
      });
    }
    let found: PanelModule | Promise<PanelModule>;
    try {
      found = chunks.panel();
    } catch (error) {
      failed(error);
      return;
    }
    if (found instanceof Promise) found.then(arrive, failed);
    else arrive(found);
  }

  /** The stand-in, drawn at once on an open before the panel is there. */
  const showPlaceholder = () => {
    placeholder ??= createPlaceholder({
      parent: panelRoot,
      title,
      strings: texts,
      bubble,
      onClose: () => handle.close(),
      onRetry: () => {
        placeholder?.setFailed(false);
        request();
      },
    });
  };

  /** Runs `call` on the panel, now or when it arrives (asking for it). */
  const withPanel = (call: (panel: PanelHandle) => void) => {
    if (panel) return call(panel);
    waiting.push(call);
    request();
    mountWhenReady();
  };

  /**
   * open() before the panel is drawn: announced now, the panel drawn at once when its code is here, else
   * the stand-in. Focus moves in, unless the panel opens by itself (`moveFocus` false).
   */
  const openBeforePanel = (view: View | undefined, moveFocus: boolean) => {
    openView = view ?? openView;
    if (!placeholder) emitter.emit('open', { agentId, view: openView });
    // The panel's code (and language) here already: drawn at once.
    if (loaded && language !== undefined && language !== 'asked') {
      mountPanel(loaded, openView, moveFocus);
      return;
    }
    showPlaceholder();
    launcher?.setOpen(true);
    // Fixed on screen: nothing to scroll into view.
    if (moveFocus) placeholder?.element.focus({ preventScroll: bubble });
    request();
    mountWhenReady();
  };

  const closeBeforePanel = () => {
    if (!placeholder || !bubble) return;
    const hadFocus = placeholder.element.contains(root.activeElement);
    placeholder.destroy();
    placeholder = undefined;
    launcher?.setOpen(false);
    emitter.emit('close', { agentId, view: openView });
    if (hadFocus) launcher?.focus();
  };

  const handle: WidgetHandle = {
    version: VERSION,
    open(view) {
      if (destroyed) return;
      if (panel) panel.open(view);
      else openBeforePanel(view, true);
    },
    close() {
      if (destroyed) return;
      if (panel) panel.close();
      else closeBeforePanel();
    },
    toggle() {
      if (destroyed) return;
      if (panel) panel.toggle();
      else if (placeholder) closeBeforePanel();
      else openBeforePanel(undefined, true);
    },
    on: emitter.on,
    reset() {
      if (!destroyed) withPanel((ready) => ready.reset());
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      clearTimeout(teaserTimer);
      cancelIdle();
      stopWarmUp?.();
      waiting = [];
      waitingForCode = [];
      panel?.destroy();
      placeholder?.destroy();
      launcher?.destroy();
      app.remove();
      if (!ownerHost) host.remove();
    },
  };

  speak();
  // An inline panel is open from the start: its stand-in now, the panel asked for at once.
  if (!bubble) {
    showPlaceholder();
    request();
  }

  // The teaser: after its delay, once per visitor and text while storage keeps the note (30 days, kept by
  // the panel's code: no offer is made of a panel that cannot load), never once the panel has been opened,
  // and not where the panel would be full screen: on a phone it would cover the page. No teaser, no timer.
  const offerTeaser = (text: string, arrived: PanelModule) => {
    if (destroyed || !launcher || launcher.opened || win.matchMedia?.(FULL_SCREEN_QUERY).matches) return;
    if (arrived.claimTeaser(options, text, { win, now })) launcher.showTeaser(text);
  };
  const teaserText = options.teaser;
  const teaserTimer =
    launcher && teaserText
      ? setTimeout(() => {
          if (loaded) return offerTeaser(teaserText, loaded.module);
          waitingForCode.push((arrived) => offerTeaser(teaserText, arrived));
          request();
        }, options.teaserDelay * 1000)
      : undefined;

  // The panel's file when the browser is first idle after the page's load: the visitor's first open then
  // finds it in memory.
  const cancelIdle = whenIdleAfterLoad(win, request);

  // After the current task, so handlers added right after init() still hear it.
  queueMicrotask(() => {
    if (!destroyed) emitter.emit('ready', { agentId, version: VERSION });
  });

  return handle;
}

/** Runs `task` once the page has loaded and the browser is idle; the returned function cancels it. */
function whenIdleAfterLoad(win: Window, task: () => void): () => void {
  if (win.document.readyState === 'complete') return whenIdle(win, task);
  let cancel = listen(win, 'load', () => {
    cancel();
    cancel = whenIdle(win, task);
  });
  return () => cancel();
}
