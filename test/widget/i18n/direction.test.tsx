// In a right-to-left widget, text whose direction nobody knows keeps its own: "What are your opening
// hours?" does not become "?What are your opening hours", "15 min intro" not "min intro 15", and code
// runs left to right.
import { cleanup, fireEvent, render } from '@testing-library/preact';
import { afterEach, expect, test } from 'vitest';
import { renderMarkdown } from '../../../src/widget/chat/markdown';
import { Facts } from '../../../src/widget/booking/parts';
import { mountWidget } from '../helpers';
import ar from '../../../src/widget/i18n/locales/ar';

afterEach(cleanup);

test('code, inline or fenced, is always left to right', () => {
  const reply = render(<div dir="rtl">{renderMarkdown('شغّل `npm start` ثم:\n```\nconst a = 1;\n```', '')}</div>).container;
  expect(reply.querySelector('code')?.getAttribute('dir')).toBe('ltr');
  expect(reply.querySelector('pre')?.getAttribute('dir')).toBe('ltr');
});

test('message bubbles, the composer and the title take the direction of their own text', () => {
  const { shadow } = mountWidget({ locale: 'ar', strings: ar, title: 'Harbor Physio' });
  const launcher = shadow.querySelector('.launcher');
  if (!launcher) throw new Error('no launcher');
  fireEvent.click(launcher);
  expect(shadow.firstElementChild?.getAttribute('dir')).toBe('rtl');
  const bubbles = shadow.querySelectorAll('.bubble');
  expect(bubbles.length).toBeGreaterThan(0);
  for (const bubble of bubbles) expect(bubble.getAttribute('dir')).toBe('auto');
  expect(shadow.querySelector('textarea')?.getAttribute('dir')).toBe('auto');
  expect(shadow.querySelector('.title bdi')?.textContent).toBe('Harbor Physio');
});

test('the booking facts isolate owner labels and visitor answers (a code, a name, a label)', () => {
  const { container } = render(
    <Facts
      rows={[
        { label: 'Name', value: 'Dana Levi' },
        { label: 'رمز الحجز', value: 'BK-A1B2C3' },
      ]}
    />,
  );
  const cells = container.querySelectorAll('dt, dd');
  expect(cells).toHaveLength(4);
  for (const cell of cells) expect(cell.getAttribute('dir')).toBe('auto');
});
