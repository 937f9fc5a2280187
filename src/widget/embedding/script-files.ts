// The script tag's chunks: files next to widget.js with content-hashed names, each added as a classic
// <script> (which needs no CORS from a plain CDN) that announces its exports (./announce). The build
// writes the panel's name and hash into widget.js, and the languages' into the panel's file (every one of
// them in widget.js would be a fifth of its size), so a cached old panel never meets a new loader, nor
// a language of another build its panel. A language is fetched once the panel's file is in.
//   integrity: set where the browser can check it: the same origin as the page, or a widget.js tag that
//     carries crossorigin (its CDN sends CORS headers). A no-CORS answer from another origin cannot be
//     checked, and the browser would refuse it.
//   Trusted Types: a policy named "agent-widget" passes only URLs of the manifest's files.
import type { PanelModule } from '../panel/contract';
import { logError, logWarning } from '../platform/log';
import { CHUNK_EVENT } from './announce';
import { ChunkError, type Chunks } from './chunks';

export interface ChunkFile {
  /** The path from widget.js's folder, e.g. chunks/panel.3f9a1c2b.js. */
  file: string;
  /** sha384-…, as <script integrity> takes it. */
  integrity: string;
}

/** What the panel's file announces: the panel, and its build's language files. */
export interface PanelFile {
  panel: PanelModule;
  languages: Readonly<Record<string, ChunkFile>>;
}

interface TrustedTypesLike {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): { createScriptURL(url: string): unknown };
}

/** One policy per copy of the loader: a CSP may forbid creating the same name twice. */
let policy: { createScriptURL(url: string): unknown } | undefined;

/** The files this loader has chosen to load: the only URLs its Trusted Types policy passes. */
const chosen = new Set<string>();

/** The URL as script.src takes it under Trusted Types; the plain string where they are not in use. */
function scriptUrlValue(win: Window, url: string): unknown {
  const trustedTypes = (win as Window & { trustedTypes?: TrustedTypesLike }).trustedTypes;
  if (!trustedTypes) return url;
  try {
    policy ??= trustedTypes.createPolicy('agent-widget', {
      createScriptURL(value) {
        if (!chosen.has(value)) throw new TypeError(`${value} is not a file of agent-widget`);
        return value;
      },
    });
  } catch {
    // The page's CSP lists policy names without ours: the plain string, refused only if Trusted Types are enforced.
    return url;
  }
  return policy.createScriptURL(url);
}

/** A file that ran but announced nothing, or not what was asked for. */
const NOT_OURS = 'it is not a file of this widget version';

/** Why a <script> failed, as far as the page can tell: offline, the CSP, or the server. */
function causeOf(win: Window, blockedByCsp: boolean, checked: boolean): string {
  if (blockedByCsp) return "blocked by the page's Content Security Policy: add the origin of widget.js to script-src";
  if (!win.navigator.onLine) return 'the browser is offline';
  return checked
    ? 'not found, unreachable, or from another build (its integrity differs): serve widget.js and chunks/ of one build'
    : 'not found or unreachable: keep the chunks/ folder next to widget.js';
}

/** Adds a classic script for `url` and resolves with what it announces. */
function loadScript(win: Window, url: string, integrity: string | undefined, crossOrigin: string | null): Promise<unknown> {
  const doc = win.document;
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    let blockedByCsp = false;
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI === url) blockedByCsp = true;
    };
    const finish = () => {
      doc.removeEventListener('securitypolicyviolation', onViolation);
      script.remove();
    };
    // What the script announced while it ran, handed on in the load event's task: the loader's work with it
    // is not added to the task that evaluated the file.
    let announced: { exports: unknown } | undefined;
    const onAnnounce = (event: Event) => {
      announced = { exports: event instanceof CustomEvent ? (event.detail as unknown) : undefined };
    };
    script.addEventListener(CHUNK_EVENT, onAnnounce, { once: true });
    script.addEventListener('load', () => {
      finish();
      if (announced) resolve(announced.exports);
      else reject(new ChunkError(url, NOT_OURS));
    });
    script.addEventListener('error', () => {
      // The violation event is queued as a task of its own: read it after that.
      setTimeout(() => {
        finish();
        reject(new ChunkError(url, causeOf(win, blockedByCsp, integrity !== undefined)));
      });
    });
    doc.addEventListener('securitypolicyviolation', onViolation);
    if (integrity) {
      script.integrity = integrity;
      script.crossOrigin = crossOrigin ?? 'anonymous';
    }
    try {
      script.src = scriptUrlValue(win, url) as string;
    } catch (error) {
      finish();
      reject(new ChunkError(url, `refused by the page's Trusted Types: allow the policy name agent-widget (${String(error)})`));
      return;
    }
    (doc.head ?? doc.documentElement).append(script);
  });
}

const isPanelFile = (value: unknown): value is PanelFile =>
  typeof value === 'object' && value !== null && 'panel' in value && 'languages' in value;

/**
 * The chunks next to `script` (widget.js or embed.js; its crossorigin attribute, if any, is reused), the
 * panel's file being `panelFile`. Each failed attempt is one console line naming the URL and the cause;
 * the next call tries again.
 */
export function scriptFolderChunks(win: Window, script: Element | null, panelFile: ChunkFile): Chunks {
  // Read off any element: only an HTML <script> has its src as a string (an SVG one has an object).
  const src: unknown = script && 'src' in script ? script.src : undefined;
  const scriptUrl = typeof src === 'string' && src ? src : win.document.baseURI;
  const crossOrigin = script?.getAttribute('crossorigin') ?? null;
  const load = async (file: ChunkFile) => {
    const url = new URL(file.file, scriptUrl).href;
    chosen.add(url);
    const checkable = new URL(url).origin === win.location.origin || crossOrigin !== null;
    return loadScript(win, url, checkable ? file.integrity : undefined, crossOrigin);
  };

  let panel: Promise<PanelFile> | undefined;
  function loadPanel(): Promise<PanelFile> {
    panel ??= load(panelFile).then(
      (announced) => {
        if (!isPanelFile(announced)) throw new ChunkError(new URL(panelFile.file, scriptUrl).href, NOT_OURS);
        return announced;
      },
      (error: unknown) => {
        // The next intent (or Try again) asks anew.
        panel = undefined;
        logError(`The panel could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      },
    );
    return panel;
  }
  const languages: Record<string, Promise<unknown>> = {};
  return {
    panel: () => loadPanel().then((announced) => announced.panel),
    language(code) {
      // One request per language and page however many widgets ask; a failure is said once, in English.
      languages[code] ??= loadPanel()
        .then((announced) => {
          const file = announced.languages[code];
          return file ? load(file) : undefined;
        })
        .catch((error: unknown) => {
          if (!(error instanceof ChunkError && error.url.endsWith(panelFile.file)))
            logWarning(`Speaking English: ${error instanceof Error ? error.message : String(error)}`);
          delete languages[code];
          return undefined;
        });
      return languages[code];
    },
  };
}
