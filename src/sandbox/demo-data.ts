// The built-in demo: one agent for "Harbor Physio" with a booking config in a zone that has DST,
// and two fake keys. None of these keys exist anywhere but in the sandbox.
import type { BookingConfig } from '../core/types';
import type { SandboxAgentSeed, SandboxKeySeed, WeeklyHours } from './types';

export const DEMO_AGENT_ID = 'demo-agent';
export const DEMO_OWNER_ID = 'demo-owner';
/** A fake key for the built-in sandbox only: All Agents of the demo owner. */
export const DEMO_API_KEY = 'sk_live_sandbox_demo_0000000000000000';
/** A fake key for the built-in sandbox only: scoped to the demo agent. */
export const DEMO_SCOPED_API_KEY = 'sk_live_sandbox_scoped_00000000000000';

export const DEMO_BOOKING_CONFIG: BookingConfig = {
  booking_title: 'Book a visit at Harbor Physio',
  booking_description: 'Pick a time that suits you. We will confirm by email; please arrive five minutes early.',
  timezone: 'America/New_York',
  duration_options: [
    { id: 'intro-15', label: '15 min intro', duration_minutes: 15 },
    { id: 'consult-30', label: '30 min consultation', duration_minutes: 30 },
    { id: 'session-60', label: '60 min session', duration_minutes: 60 },
  ],
  min_notice_hours: 4,
  max_advance_days: 60,
  form_fields: [
    { id: 'name', type: 'input_field', label: 'Your name', required: true, inputType: 'text', placeholder: 'Jane Doe' },
    {
      id: 'email',
      type: 'input_field',
      label: 'Email',
      required: true,
      inputType: 'email',
      placeholder: 'jane@example.com',
    },
    {
      id: 'notes',
      type: 'input_field',
      label: 'Anything we should know?',
      required: false,
      inputType: 'text',
      placeholder: 'e.g. knee pain after running',
    },
  ],
  allow_user_cancellation: true,
  cancellation_notice_hours: 24,
};

/**
 * What the demo page (public/index.html) tells visitors, and the agent's answers are built from:
 * test/sandbox/demo-page.test.ts holds the page's address and price table to these values.
 */
export const DEMO_ADDRESS = '214 Harbor Street, Brooklyn, NY';
/** One price per duration option of DEMO_BOOKING_CONFIG, under the name the page's price table uses. */
export const DEMO_PRICES: readonly { optionId: string; name: string; price: string }[] = [
  { optionId: 'intro-15', name: 'Intro call', price: 'Free' },
  { optionId: 'consult-30', name: 'Consultation', price: '$65' },
  { optionId: 'session-60', name: 'Treatment session', price: '$120' },
];

const WEEKDAY = [{ start: '09:00', end: '17:00' }];

export const DEMO_BUSINESS_HOURS: WeeklyHours = {
  mon: WEEKDAY,
  tue: WEEKDAY,
  wed: WEEKDAY,
  thu: WEEKDAY,
  fri: WEEKDAY,
  sat: [{ start: '10:00', end: '13:00' }],
};

export const DEMO_AGENTS: SandboxAgentSeed[] = [{ id: DEMO_AGENT_ID }];

export const DEMO_KEYS: SandboxKeySeed[] = [
  { key: DEMO_API_KEY, name: 'Sandbox (All Agents)' },
  { key: DEMO_SCOPED_API_KEY, name: 'Sandbox (demo agent)', agentId: DEMO_AGENT_ID },
];
