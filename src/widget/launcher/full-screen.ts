// Below this width or height the bubble panel covers the viewport (launcher.css has the same query): the
// panel is then modal (../shell/shell), and the teaser stays away (./launcher).
export const FULL_SCREEN_QUERY = '(max-width: 480px), (max-height: 500px)';
