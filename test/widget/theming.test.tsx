// Owner theming (docs/widget.md, Theming): the documented custom properties are declared on the host only, so
// the page's own rules on the host element win over them, in either theme; data-z-index / init({ zIndex })
// is validated like every option and reaches the host rules; the documented ::part() names are on the
// elements they name. Computed colours in a real browser: test/e2e/theming.e2e.ts.
import { act, fireEvent } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { installGlobal, type AgentWidgetApi } from '../../src/widget/embedding/global';
import { testChunks } from '../support/chunks';
import { ELEMENT_ATTRIBUTES, readOptions, resolveOptions } from '../../src/widget/options/options';
import { resolvePanelOptions } from '../../src/widget/options/panel-options';
import { hostCss } from '../../src/widget/options/theme';
import { useSandboxServer } from '../support/msw';
import { mountWidget } from './helpers';

useSandboxServer();

const REQUIRED = { agentId: 'demo-agent', apiBase: 'https://sandbox.test/api', chatUrl: '/api/chat' };
const page = 'https://shop.test/';

/** Every custom property docs/widget.md documents for owners. */
const PROPERTIES = [
  'accent',
  'on-accent',
  'fg',
  'muted',
  'bg',
  'surface',
  'border',
  'field-border',
  'danger',
  'radius',
  'font',
  'launcher-size',
  'offset-x',
  'offset-y',
].map((name) => `--aw-${name}`);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('data-z-index / zIndex', () => {
  test('the bubble is above everything unless the owner lowers it, by attribute text or by number', () => {
    expect(resolveOptions(REQUIRED, page).options?.zIndex).toBe('2147483647');
    expect(resolveOptions({ ...REQUIRED, zIndex: ' 100 ' }, page).options?.zIndex).toBe('100');
    expect(resolveOptions({ ...REQUIRED, zIndex: 100 }, page).options?.zIndex).toBe('100');
    expect(resolveOptions({ ...REQUIRED, zIndex: 0 }, page).options?.zIndex).toBe('0');
    expect(hostCss({ color: '#4f46e5', mode: 'bubble', theme: 'light', zIndex: '100' })).toContain('z-index:100!important;');
  });

  test.each([['-1'], ['1.5'], ['auto'], ['12345678901'], [1.5], [-3], [{}]])('%j is one warning, and the top z-index', (zIndex) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const options = readOptions({ ...REQUIRED, zIndex }, document);
    expect(options?.zIndex).toBe('2147483647');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('[AgentWidget] Defaults used: data-z-index (zIndex) must be a whole number.');
  });

  test('init() still takes utm as a boolean, now that numbers and booleans are read as text', () => {
    const utm = (given: boolean) => {
      const options = resolveOptions({ ...REQUIRED, utm: given }, 'https://shop.test/?utm_source=mail').options;
      return options && resolvePanelOptions(options.panelInput).options.utm;
    };
    expect(utm(true)).toEqual({ utm_source: 'mail' });
    expect(utm(false)).toBeUndefined();
  });

  test('a script tag’s data-z-index reaches the widget’s host rules', async () => {
    // jsdom has no constructable stylesheets: this one keeps the text the widget adopts.
    vi.stubGlobal(
      'CSSStyleSheet',
      class {
        text = '';
        replaceSync(text: string) {
          this.text = text;
        }
      },
    );
    const script = document.createElement('script');
    const attributes = {
      'data-agent-id': 'demo-agent',
      'data-api-base': 'https://sandbox.test/api',
      'data-chat-url': '/api/chat',
      'data-z-index': '1000',
    };
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
    document.body.append(script);
    let widget: AgentWidgetApi | undefined;
    await act(async () => {
      widget = installGlobal(window, script, testChunks);
      await new Promise((resolve) => setTimeout(resolve));
    });
    const sheets = document.querySelector('[data-agent-widget]')?.shadowRoot?.adoptedStyleSheets as unknown as { text: string }[];
    expect(sheets[0]?.text).toMatch(/^:host\{all:initial!important;position:fixed!important;.*z-index:1000!important;/);
    act(() => widget?.destroy());
    delete window.AgentWidget;
    script.remove();
  });

  test('<agent-widget> is always inline: z-index, mode and target are not among its attributes', () => {
    expect(ELEMENT_ATTRIBUTES).toContain('theme');
    expect(ELEMENT_ATTRIBUTES).toContain('color');
    expect(ELEMENT_ATTRIBUTES).toContain('utm');
    for (const name of ['z-index', 'mode', 'target']) expect(ELEMENT_ATTRIBUTES).not.toContain(name);
  });
});

describe('custom properties', () => {
  const css = (['launcher/launcher.css', 'shell/shell.css', 'chat/chat.css', 'booking/booking.css'] as const).map((path) =>
    readFileSync(join(process.cwd(), 'src/widget', path), 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''),
  );

  test('are declared on :host only: a declaration on an element inside would hide the page’s value', () => {
    const declaredOn = css.flatMap((sheet) =>
      [...sheet.matchAll(/([^{}]+)\{([^{}]*)\}/g)].flatMap(([, selector = '', body = '']) =>
        PROPERTIES.filter((name) => new RegExp(`(^|[;\\s])${name}\\s*:`).test(body)).map((name) => `${selector.trim()} ${name}`),
      ),
    );
    expect(declaredOn.length).toBeGreaterThan(0);
    expect(declaredOn.filter((entry) => !entry.startsWith(':host '))).toEqual([]);
  });

  test('the host rules declare every colour without !important, so the page’s rules on the host win', () => {
    for (const theme of ['light', 'dark', 'auto'] as const) {
      const rules = hostCss({ color: '#0f766e', mode: 'bubble', theme, zIndex: '2147483647' });
      for (const name of ['--aw-accent', '--aw-on-accent']) expect(rules).toMatch(new RegExp(`${name}:#[0-9a-f]+[;}]`));
      for (const name of ['--aw-bg', '--aw-fg', '--aw-muted', '--aw-surface', '--aw-border', '--aw-field-border', '--aw-danger'])
        expect(rules).toMatch(new RegExp(`${name}:light-dark\\(#[0-9a-f]+,#[0-9a-f]+\\)[;}]`));
      expect(rules).not.toMatch(/--aw-[\w-]+:[^;}]*!important/);
    }
    const launcher = css[0] ?? '';
    for (const name of ['--aw-radius', '--aw-font', '--aw-launcher-size', '--aw-offset-x', '--aw-offset-y'])
      expect(launcher).toMatch(new RegExp(`:host\\s*\\{[^}]*${name}:`));
  });

  test('docs/widget.md gives the defaults the widget declares', () => {
    const readme = readFileSync(join(process.cwd(), 'docs', 'widget.md'), 'utf8');
    const host = /:host\s*\{([^}]*)\}/.exec(css[0] ?? '')?.[1] ?? '';
    const sized = [...host.matchAll(/(--aw-[\w-]+):\s*([^;]+);/g)];
    expect(sized.map(([, name]) => name)).toEqual(['--aw-radius', '--aw-font', '--aw-launcher-size', '--aw-offset-x', '--aw-offset-y']);
    for (const [, name, value] of sized) expect(readme).toContain(`| \`${name}\` | \`${value?.trim()}\` |`);
    const palette = [
      ...hostCss({ color: '#0f766e', mode: 'bubble', theme: 'light', zIndex: '1' }).matchAll(/(--aw-[\w-]+):light-dark\((#\w+),(#\w+)\)/g),
    ];
    expect(palette).toHaveLength(7);
    for (const [, name, light, dark] of palette) expect(readme).toContain(`| \`${name}\` | \`${light}\` (dark: \`${dark}\`) |`);
  });

  test('each palette colour is light-dark(light, dark), chosen by the theme as the color-scheme: light, dark, or the system setting for auto', () => {
    const rules = (theme: 'light' | 'dark' | 'auto') => hostCss({ color: '#0f766e', mode: 'inline', theme, zIndex: '2147483647' });
    expect(rules('light')).toContain('--aw-bg:light-dark(#ffffff,#17191e);');
    expect(rules('light')).toMatch(/;--aw-scheme:light\}$/);
    expect(rules('dark')).toMatch(/;--aw-scheme:dark\}$/);
    expect(rules('auto')).toMatch(/;--aw-scheme:light dark\}$/);
    // One :host rule, no media query: the dark values are the palette's second halves.
    for (const theme of ['light', 'dark', 'auto'] as const) expect(rules(theme).match(/\{/g)).toHaveLength(1);
  });
});

describe('::part() names', () => {
  test('the launcher, the panel, its header and the conversation log are exposed to the page', () => {
    const { shadow, ui } = mountWidget();
    expect(shadow.querySelector('[part="launcher"]')).toBe(ui.getByRole('button', { name: 'Chat with Acme' }));
    fireEvent.click(ui.getByRole('button', { name: 'Chat with Acme' }));
    expect(shadow.querySelector('[part="panel"]')).toBe(ui.getByRole('dialog', { name: 'Acme' }));
    expect(shadow.querySelector('[part="header"]')?.contains(ui.getByRole('heading', { name: 'Acme' }))).toBe(true);
    expect(shadow.querySelector('[part="messages"]')).toBe(ui.getByRole('log', { name: 'Conversation' }));
    expect([...shadow.querySelectorAll('[part]')].map((el) => el.getAttribute('part'))).toEqual([
      'launcher',
      'panel',
      'header',
      'messages',
    ]);
  });
});
