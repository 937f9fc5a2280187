// Booking while the service is out of reach, in Chromium: the visitor is told the booking service
// cannot be reached (not to check a connection that works), and Try again picks up once it is back.
import { expect, test } from 'vitest';
import { suite, useDemo } from './support/demo';

const demo = useDemo({ now: '2026-11-23T14:00:00Z' });

suite('booking while the service is down', () => {
  test('online, config refused: "can\'t reach the booking service" with Try again, which works once it is back', async () => {
    const context = await demo.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(demo.server.url);
    let refused = 0;
    await page.route('**/booking/public/config*', (route) => {
      refused++;
      return route.abort('connectionrefused');
    });
    await page.getByRole('button', { name: 'Chat with Harbor Physio' }).click();
    await page.getByRole('tab', { name: 'Book', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.getByText("We can't reach the booking service right now. Please try again in a moment.").waitFor();
    expect(await page.getByText(/Check your connection/).count()).toBe(0);
    expect(refused).toBe(1);
    await page.screenshot({ path: 'test-results/booking-unreachable.png' });

    await page.unroute('**/booking/public/config*');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'How long do you need?' }).waitFor();
    expect(await alert.count()).toBe(0);
    await context.close();
  });
});
