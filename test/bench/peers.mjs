// The chat widgets we compare with, installed from npm (devDependencies used only by the bench) and served
// from the bench's loopback server on the same host page as ours, one widget per run. Nothing leaves the
// machine: every remote URL a peer would call is either pointed at loopback (and answered there) or
// blocked in the browser (browser.mjs), and the bench reports what each tried.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const dirOf = (packageJson) => packageJson.replace(/package\.json$/, '');

/**
 * name: the key in ?widget=peer:<name>; package: its npm package; files: path on the bench server ->
 * file in the package; tag(origin): what the page gets in place of our script tag (the peer's documented
 * embed); launcher: selector (searched in the page and every shadow root) of what a visitor first sees;
 * open: the peer's comparable action to our "click the launcher -> composer focused", or undefined:
 * `click` is clicked, then the time to the first frame where `shows` is on screen is measured.
 * offline: what the peer shows with no network, for the README.
 */
export const PEERS = [
  {
    name: 'deep-chat',
    package: 'deep-chat',
    dir: dirOf(require.resolve('deep-chat/package.json')),
    files: { '/peers/deep-chat.js': 'dist/deepChat.bundle.js' },
    // deep-chat's documented use: the module and the <deep-chat> element, here talking to a loopback URL.
    tag: () =>
      '<script type="module" src="/peers/deep-chat.js"></script>' +
      `<deep-chat connect='{"url":"/peers/deep-chat/chat"}' introMessage='{"text":"Hi! Ask about opening hours."}'></deep-chat>`,
    launcher: '#text-input',
    open: undefined,
    offline: 'its chat box, drawn in the page at load (no launcher, so no open to compare), with its intro message and input',
  },
  {
    name: 'cal.com',
    package: '@calcom/embed-core',
    dir: dirOf(require.resolve('@calcom/embed-core/package.json')),
    files: { '/peers/cal/embed/embed.js': 'dist/embed/embed.js' },
    // Cal.com's documented floating-button snippet, with the loader and the booking app on loopback.
    tag: (origin) => `<script>
(function (C, A, L) { let p = function (a, ar) { a.q.push(ar); }; let d = C.document; C.Cal = C.Cal || function () { let cal = C.Cal; let ar = arguments; if (!cal.loaded) { cal.ns = {}; cal.q = cal.q || []; d.head.appendChild(d.createElement("script")).src = A; cal.loaded = true; } if (ar[0] === L) { const api = function () { p(api, arguments); }; const namespace = ar[1]; api.q = api.q || []; if(typeof namespace === "string"){cal.ns[namespace] = cal.ns[namespace] || api;p(cal.ns[namespace], ar);p(cal, ["initNamespace", namespace]);} else p(cal, ar); return;} p(cal, ar); }; })(window, "${origin}/peers/cal/embed/embed.js", "init");
Cal("init", { origin: "${origin}/peers/cal-app" });
Cal("floatingButton", { calLink: "harbor-physio/consultation", buttonText: "Book a time", buttonColor: "#0f766e" });
</script>`,
    launcher: 'cal-floating-button >>> button',
    open: { click: 'cal-floating-button >>> button', shows: 'cal-modal-box >>> .my-backdrop' },
    offline:
      'its floating button; clicked, its modal with a loading skeleton around an iframe of the booking app, which the bench answers with a stub page (the real app is cal.com, not installable)',
  },
  {
    name: 'typebot',
    package: '@typebot.io/js',
    dir: dirOf(require.resolve('@typebot.io/js/package.json')),
    files: { '/peers/typebot/web.js': 'dist/web.js' },
    // Typebot's documented bubble embed, with its API host on loopback.
    tag: (origin) => `<script type="module">
import Typebot from "/peers/typebot/web.js";
Typebot.initBubble({ typebot: "harbor-physio", apiHost: "${origin}/peers/typebot-api", theme: { button: { backgroundColor: "#0f766e" } } });
</script>`,
    launcher: 'typebot-bubble >>> button',
    open: { click: 'typebot-bubble >>> button', shows: 'typebot-bubble >>> [part="bot"]' },
    offline:
      'its bubble button; clicked, its chat window, which asks the loopback API host to start the chat and shows the error it gets (404: the bot lives on typebot.io)',
  },
].map((peer) => ({ ...peer, version: JSON.parse(readFileSync(`${peer.dir}package.json`, 'utf8')).version }));

// Read once, so the server answers a peer's script from memory, as it answers ours.
const files = new Map(
  PEERS.flatMap((peer) => Object.entries(peer.files).map(([path, file]) => [path, readFileSync(`${peer.dir}${file}`, 'utf8')])),
);

/** The file the bench server answers for `pathname`, or undefined. */
export const peerFile = (pathname) => files.get(pathname);

export const peerNamed = (name) => PEERS.find((p) => p.name === name);
