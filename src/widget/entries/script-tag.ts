// widget.js, the loader the owner's <script> tag names: finds its own <script>, installs the global and
// registers <agent-widget>, with the panel and the languages fetched from the script's own folder.
//
// Owners who call the API before the script has loaded paste this stub first; its queued calls
// replay in order when the widget arrives (on() returns no unsubscribe until then):
//   <script>window.AgentWidget=window.AgentWidget||{q:[]};"init open close toggle on reset destroy".split(" ")
//   .forEach(function(m){AgentWidget[m]=AgentWidget[m]||function(){AgentWidget.q.push([m,arguments])}})</script>
import { createChunks } from 'virtual:agent-widget/chunks';
import { defineElement } from '../embedding/element';
import { installGlobal } from '../embedding/global';

// A classic script: currentScript is this one while it runs (a module, in `npm run dev`, has none).
const script = document.currentScript ?? document.querySelector('script[data-agent-id][src*="widget"]');
const chunks = createChunks(window, script);
installGlobal(window, script, chunks);
defineElement(chunks);
