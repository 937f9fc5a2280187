// The script tag. Everything lives in ./api and ./mount; this file only finds its own <script> and
// registers <agent-widget> (the same bundle serves both).
//
// Owners who call the API before the script has loaded paste this stub first; its queued calls
// replay in order when the widget arrives (on() returns no unsubscribe until then):
//   <script>window.AgentWidget=window.AgentWidget||{q:[]};"init open close toggle on reset destroy".split(" ")
//   .forEach(function(m){AgentWidget[m]=AgentWidget[m]||function(){AgentWidget.q.push([m,arguments])}})</script>
import { installGlobal } from '../embedding/global';
import { defineElement } from '../embedding/element';

installGlobal(window, document.currentScript ?? document.querySelector('script[data-agent-id][src*="widget"]'));
defineElement();
