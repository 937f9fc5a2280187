// A step that changes while the visitor works on the host page leaves their focus where it is: the
// Book view moves focus to a new step's heading only when focus was lost with the old step.
import { act } from '@testing-library/preact';
import { afterEach, expect, test } from 'vitest';
import { useSandboxServer } from '../../support/msw';
import { mountWidget } from '../helpers';

useSandboxServer();

afterEach(() => {
  document.querySelector('#page-field')?.remove();
});

test('the booking config arriving does not take focus from a field on the page', async () => {
  const field = Object.assign(document.createElement('input'), { id: 'page-field' });
  document.body.append(field);
  const { ui, handle, shadow } = mountWidget();
  act(() => handle.open('booking'));
  field.focus();
  await ui.findByRole('heading', { name: 'How long do you need?' });
  expect(document.activeElement).toBe(field);
  expect(shadow.activeElement).toBeNull();
});

test('with focus in the widget, the new step takes it', async () => {
  const { ui, handle, shadow } = mountWidget();
  act(() => handle.open('booking'));
  const heading = await ui.findByRole('heading', { name: 'How long do you need?' });
  expect(shadow.activeElement).toBe(heading);
});
