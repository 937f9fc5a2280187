// Runs once before the e2e project. Without Chromium the e2e tests skip (see demo.ts), and this says
// so LOUDLY; under CI=true a missing browser fails the run instead.
import { CHROMIUM_PATH, hasChromium } from './chromium.mjs';

export default function requireChromium(): void {
  if (hasChromium()) return;
  console.error(
    [
      '',
      '!'.repeat(78),
      `!! Chromium not found at ${CHROMIUM_PATH}: the END-TO-END TESTS DID NOT RUN.`,
      '!! Install it with:   sudo apt-get install -y chromium',
      '!! (or point CHROMIUM_PATH at a Chromium binary), then run npm test again.',
      '!'.repeat(78),
      '',
    ].join('\n'),
  );
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  if (ci) throw new Error(`CI=true: Chromium is required at ${CHROMIUM_PATH} for the e2e tests.`);
}
