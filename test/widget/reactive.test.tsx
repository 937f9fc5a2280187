// reactive(): a component re-renders when a signal it read changes, and stops following signals once
// it is gone, even when it is unmounted before its effects would have run.
import { act, cleanup, render, screen } from '@testing-library/preact';
import { Component, render as renderInto } from 'preact';
import { signal } from '@preact/signals-core';
import { afterEach, expect, test, vi } from 'vitest';
import { reactive, Reactive } from '../../src/widget/platform/reactive';

afterEach(cleanup);

test('re-renders when a signal read during render changes, and only then', async () => {
  const shown = signal('one');
  const unread = signal(0);
  let renders = 0;
  const View = reactive(function View() {
    renders++;
    return <p>{shown.value}</p>;
  });
  render(<View />);
  expect(screen.getByText('one')).toBeTruthy();
  await act(() => {
    unread.value = 1;
  });
  expect(renders).toBe(1);
  await act(() => {
    shown.value = 'two';
  });
  expect(screen.getByText('two')).toBeTruthy();
  expect(renders).toBe(2);
});

test('unmounted before its effects ran: a later change asks nothing of the dead component', () => {
  const value = signal(0);
  const View = reactive(function View() {
    return <p>{value.value}</p>;
  });
  const host = document.createElement('div');
  renderInto(<View />, host);
  renderInto(null, host);
  const forceUpdate = vi.spyOn(Component.prototype, 'forceUpdate');
  value.value = 1;
  expect(forceUpdate).not.toHaveBeenCalled();
});

test('a Reactive class with unmount work of its own still stops following signals once gone', () => {
  const value = signal(0);
  const done = vi.fn();
  class View extends Reactive {
    override componentWillUnmount(): void {
      super.componentWillUnmount();
      done();
    }

    view() {
      return <p>{value.value}</p>;
    }
  }
  const host = document.createElement('div');
  renderInto(<View />, host);
  renderInto(null, host);
  expect(done).toHaveBeenCalledOnce();
  const forceUpdate = vi.spyOn(Component.prototype, 'forceUpdate');
  value.value = 1;
  expect(forceUpdate).not.toHaveBeenCalled();
});
