// The launcher and the panel: what renders when, focus, keyboard, full screen, events, inline mode.
import { FULL_SCREEN_QUERY } from '../../src/widget/launcher/full-screen';
import { act, fireEvent, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { WidgetEventMap } from '../../src/widget/entries/bundler';
import { useSandboxServer } from '../support/msw';
import { forget, mountWidget, openChat, settle } from './helpers';

const api = useSandboxServer();

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.removeAttribute('style');
  document.documentElement.removeAttribute('style');
});

/** Pretends the viewport is phone-sized (jsdom has no matchMedia), with a touch screen when `touch`. */
function phoneViewport(touch = false) {
  vi.stubGlobal('matchMedia', (media: string) => ({
    matches: media === FULL_SCREEN_QUERY || (touch && media.replace(/ /g, '') === '(pointer:coarse)'),
    media,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function requestsDuring() {
  const urls: string[] = [];
  const listener = ({ request }: { request: Request }) => urls.push(request.url);
  api.server.events.on('request:start', listener);
  return urls;
}

describe('before the first open', () => {
  test('only the launcher renders, and nothing is fetched', async () => {
    const urls = requestsDuring();
    const { ui, shadow } = mountWidget();
    await settle(3);
    expect(ui.getAllByRole('button')).toHaveLength(1);
    expect(shadow.querySelector('[role="dialog"], textarea, [role="tablist"]')).toBeNull();
    expect(urls).toEqual([]);
  });

  test('the launcher is a named button that says it controls a collapsed panel', () => {
    const { ui } = mountWidget();
    const launcher = ui.getByRole('button', { name: 'Chat with Acme' });
    expect(launcher.tagName).toBe('BUTTON');
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(launcher.getAttribute('aria-controls')).toBe('panel');
  });
});

describe('opening and closing', () => {
  test('the launcher opens a named dialog with focus in the composer; Escape closes and focus returns', async () => {
    const { ui, shadow } = mountWidget();
    const launcher = ui.getByRole('button', { name: 'Chat with Acme' });
    launcher.focus();
    fireEvent.click(launcher);
    const dialog = ui.getByRole('dialog', { name: 'Acme' });
    expect(dialog.id).toBe(launcher.getAttribute('aria-controls'));
    expect(launcher.getAttribute('aria-expanded')).toBe('true');
    // The first time, with the next frame: the new panel is laid out then, not in the click's task.
    await waitFor(() => expect(shadow.activeElement).toBe(ui.getByRole('textbox', { name: 'Message' })));
    expect(ui.getByText('Hi! How can we help?')).toBeTruthy();

    fireEvent.keyDown(shadow.activeElement ?? dialog, { key: 'Escape' });
    expect(ui.queryByRole('dialog')).toBeNull();
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    expect(shadow.activeElement).toBe(launcher);
  });

  test('the close button closes and returns focus to the launcher', async () => {
    const { ui, shadow } = mountWidget();
    const composer = openChat(ui);
    await waitFor(() => expect(shadow.activeElement).toBe(composer));
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    expect(ui.queryByRole('dialog')).toBeNull();
    expect(shadow.activeElement).toBe(ui.getByRole('button', { name: 'Chat with Acme' }));
  });

  test('open, close, toggle from the API emit open and close with the view', () => {
    const { ui, handle } = mountWidget();
    const events: string[] = [];
    handle.on('open', (e) => events.push(`open:${e.view}:${e.agentId}`));
    handle.on('close', (e) => events.push(`close:${e.view}`));
    act(() => handle.open('lookup'));
    expect(ui.getByRole('tab', { name: 'My booking' }).getAttribute('aria-selected')).toBe('true');
    act(() => handle.open('lookup'));
    act(() => handle.toggle());
    act(() => handle.close());
    act(() => handle.toggle());
    expect(events).toEqual(['open:lookup:demo-agent', 'close:lookup', 'open:lookup:demo-agent']);
  });

  test('closing from the API while the visitor is on the page does not steal focus', () => {
    const { ui, handle, shadow } = mountWidget();
    openChat(ui);
    const outside = document.createElement('button');
    document.body.append(outside);
    outside.focus();
    act(() => handle.close());
    expect(document.activeElement).toBe(outside);
    expect(shadow.activeElement).toBeNull();
  });

  test('a handler that throws is reported and does not break the widget or other handlers', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ui, handle } = mountWidget();
    const seen: WidgetEventMap['open'][] = [];
    handle.on('open', () => {
      throw new Error('owner bug');
    });
    handle.on('open', (e) => seen.push(e));
    openChat(ui);
    expect(ui.getByRole('dialog')).toBeTruthy();
    expect(seen).toHaveLength(1);
    expect(consoleError).toHaveBeenCalledTimes(1);
  });

  test('unsubscribe stops a handler', () => {
    const { ui, handle } = mountWidget();
    const open = vi.fn();
    const off = handle.on('open', open);
    off();
    openChat(ui);
    expect(open).not.toHaveBeenCalled();
  });

  test('ready is emitted once with the version, after the current task', async () => {
    const { handle } = mountWidget();
    const ready = vi.fn();
    handle.on('ready', ready);
    await settle(1);
    expect(ready).toHaveBeenCalledTimes(1);
    expect(ready).toHaveBeenCalledWith({ agentId: 'demo-agent', version: handle.version });
  });

  test('destroy removes the host element', () => {
    const { handle } = mountWidget();
    act(() => handle.destroy());
    forget(handle);
    expect(document.querySelector('[data-agent-widget]')).toBeNull();
  });
});

describe('views', () => {
  test('tabs follow the APG pattern: one tab stop, arrows, Home and End, panels named by their tab', () => {
    const { ui } = mountWidget();
    openChat(ui);
    const tablist = ui.getByRole('tablist', { name: 'Sections' });
    const chat = ui.getByRole('tab', { name: 'Chat' });
    expect(chat.getAttribute('aria-selected')).toBe('true');
    expect(ui.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([0, -1, -1]);
    expect(ui.getByRole('tabpanel', { name: 'Chat' })).toBeTruthy();

    chat.focus();
    fireEvent.keyDown(chat, { key: 'ArrowRight' });
    const book = ui.getByRole('tab', { name: 'Book' });
    expect(book.getAttribute('aria-selected')).toBe('true');
    expect(tablist.getRootNode()).toBe(book.getRootNode());
    expect((book.getRootNode() as ShadowRoot).activeElement).toBe(book);
    expect(ui.getByRole('tabpanel', { name: 'Book' })).toBeTruthy();
    expect(ui.queryByRole('tabpanel', { name: 'Chat' })).toBeNull();

    fireEvent.keyDown(book, { key: 'End' });
    expect(ui.getByRole('tab', { name: 'My booking' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(ui.getByRole('tab', { name: 'My booking' }), { key: 'ArrowRight' });
    expect(chat.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(chat, { key: 'ArrowLeft' });
    expect(ui.getByRole('tab', { name: 'My booking' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(ui.getByRole('tab', { name: 'My booking' }), { key: 'Home' });
    expect(chat.getAttribute('aria-selected')).toBe('true');
  });

  test('speaking a right-to-left language the panel is rtl and the arrow keys follow the reading direction', () => {
    // A bundler user's own Arabic text: `locale` names the language it is in.
    const { ui, shadow } = mountWidget({ locale: 'ar', strings: { tabChat: 'دردشة', tabBook: 'حجز' } });
    openChat(ui);
    expect(shadow.firstElementChild?.getAttribute('dir')).toBe('rtl');
    const chat = ui.getByRole('tab', { name: 'دردشة' });
    fireEvent.keyDown(chat, { key: 'ArrowLeft' });
    expect(ui.getByRole('tab', { name: 'حجز' }).getAttribute('aria-selected')).toBe('true');
  });

  test('text typed in the composer survives a trip to another view', () => {
    const { ui } = mountWidget();
    const box = openChat(ui);
    fireEvent.input(box, { target: { value: 'half a question' } });
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    fireEvent.click(ui.getByRole('tab', { name: 'Chat' }));
    expect((ui.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('half a question');
  });
});

describe('the panel outline', () => {
  test('the title is the one h2 and names the dialog; a Book or My booking step is an h3 under it', async () => {
    const { ui } = mountWidget();
    openChat(ui);
    const title = ui.getByRole('heading', { level: 2, name: 'Acme' });
    expect(ui.getByRole('dialog', { name: 'Acme' }).getAttribute('aria-labelledby')).toBe(title.id);
    fireEvent.click(ui.getByRole('tab', { name: 'Book' }));
    expect(await ui.findByRole('heading', { level: 3, name: 'How long do you need?' })).toBeTruthy();
    fireEvent.click(ui.getByRole('tab', { name: 'My booking' }));
    expect(await ui.findByRole('heading', { level: 3, name: 'My booking' })).toBeTruthy();
    expect(ui.getAllByRole('heading', { level: 2 })).toEqual([title]);
  });
});

describe('full screen on a phone', () => {
  test('the dialog is modal, the page behind cannot scroll, and the page style comes back exactly', () => {
    phoneViewport();
    document.body.setAttribute('style', 'color: red; overflow-y: scroll;');
    const { ui } = mountWidget();
    openChat(ui);
    expect(ui.getByRole('dialog').getAttribute('aria-modal')).toBe('true');
    expect(document.body.style.overflowY).toBe('hidden');
    expect(document.documentElement.style.overflowY).toBe('hidden');

    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    expect(document.body.getAttribute('style')).toBe('color: red; overflow-y: scroll;');
    expect(document.documentElement.hasAttribute('style')).toBe(false);
  });

  test('Tab and Shift+Tab stay inside the open dialog', () => {
    phoneViewport();
    const { ui, shadow } = mountWidget();
    openChat(ui);
    const send = ui.getByRole('button', { name: 'Send' });
    const newConversation = ui.getByRole('button', { name: 'New conversation' });
    send.focus();
    fireEvent.keyDown(send, { key: 'Tab' });
    expect(shadow.activeElement).toBe(newConversation);
    fireEvent.keyDown(newConversation, { key: 'Tab', shiftKey: true });
    expect(shadow.activeElement).toBe(send);
  });

  test('on a touch screen opening focuses the dialog, not the composer, so no keyboard comes up', async () => {
    phoneViewport(true);
    const { ui, shadow } = mountWidget();
    openChat(ui);
    await waitFor(() => expect(shadow.activeElement).toBe(ui.getByRole('dialog', { name: 'Acme' })));
    expect(ui.getByRole('textbox', { name: 'Message' })).not.toBe(shadow.activeElement);
  });

  test('the open panel covers the visual viewport only: an on-screen keyboard does not hide the composer', () => {
    phoneViewport();
    // jsdom has no visualViewport: one with a keyboard's worth of height to take away.
    const viewport = Object.assign(new EventTarget(), { offsetTop: 0, height: 667 });
    vi.stubGlobal('visualViewport', viewport);
    const { ui } = mountWidget();
    openChat(ui);
    const dialog = ui.getByRole('dialog');
    expect([dialog.style.top, dialog.style.height]).toEqual(['0px', '667px']);

    act(() => {
      Object.assign(viewport, { offsetTop: 40, height: 367 });
      viewport.dispatchEvent(new Event('resize'));
    });
    expect([dialog.style.top, dialog.style.height]).toEqual(['40px', '367px']);
    act(() => {
      viewport.height = 360;
      viewport.dispatchEvent(new Event('scroll'));
    });
    expect(dialog.style.height).toBe('360px');

    // Closed, it stops listening; opened again, it starts from where the viewport is then.
    fireEvent.click(ui.getByRole('button', { name: 'Close' }));
    act(() => {
      Object.assign(viewport, { offsetTop: 0, height: 667 });
      viewport.dispatchEvent(new Event('resize'));
    });
    expect(dialog.style.height).toBe('360px');
    openChat(ui);
    expect([dialog.style.top, dialog.style.height]).toEqual(['0px', '667px']);
  });

  test('on a wide screen the panel is not modal and the page keeps scrolling', () => {
    const { ui } = mountWidget();
    openChat(ui);
    expect(ui.getByRole('dialog').hasAttribute('aria-modal')).toBe(false);
    expect(document.body.hasAttribute('style')).toBe(false);
  });
});

describe('inline mode', () => {
  test('the panel fills the target as a named region, with no launcher and no focus stealing', async () => {
    const target = document.createElement('section');
    target.id = 'help';
    document.body.append(target);
    const urls = requestsDuring();
    const { ui, shadow } = mountWidget({ mode: 'inline', target: '#help' }, {}, target);
    expect(shadow.host.parentElement).toBe(target);
    expect(ui.queryByRole('button', { name: 'Chat with Acme' })).toBeNull();
    expect(ui.queryByRole('dialog')).toBeNull();
    expect(ui.getByRole('region', { name: 'Acme' })).toBeTruthy();
    expect(ui.queryByRole('button', { name: 'Close' })).toBeNull();
    expect(ui.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(shadow.activeElement).toBeNull();
    await settle(3);
    expect(urls).toEqual([]);
  });
});

describe('theme and position', () => {
  // The theme is the host rules' palette (theming.test.tsx), so the page's rules on the host win over it.
  test('position is a class on the root; the host page layout is untouched', () => {
    const { shadow } = mountWidget({ position: 'left', theme: 'dark' });
    const root = shadow.firstElementChild;
    expect(root?.classList.contains('aw--left')).toBe(true);
    expect(shadow.querySelector('style, [style]')).toBeNull();
  });
});
