// The options only the panel reads (./panel-options), named here for the loader, which collects every
// option a tag carries: prefillFromUrl before prefill-<key>, which is a family of attributes of its own.
export const PANEL_KEYS = ['greeting', 'starters', 'avatar', 'utm', 'prefillFromUrl'] as const;
