// The public events and their payloads (booking's come from the booking contract), and the emitter
// behind AgentWidget.on(). A handler that throws is reported and never breaks the widget.
import type { Booking, BookingWithDisplay, ChatSource, DurationOption } from '../../core/types';
import type { WidgetErrorEvent } from './failure';
import type { View } from '../options/options';
import { logError } from './log';

export type { WidgetErrorEvent } from './failure';

/** Thumbs up or down on a reply. */
export type Rating = 'up' | 'down';

/** The booking flow's events (../booking emits them through its context). */
export interface BookingEventMap {
  'booking:date-selected': { agentId: string; date: string; timezone: string; durationMinutes: number };
  'booking:slot-selected': {
    agentId: string;
    date: string;
    time: string;
    timezone: string;
    /** ISO 8601 instant of the start. */
    start: string;
    duration: DurationOption;
  };
  'booking:created': { agentId: string; booking: Booking; utm?: Record<string, string> };
  'booking:cancelled': { agentId: string; code: string; booking?: BookingWithDisplay; message: string };
  error: WidgetErrorEvent;
}

export interface WidgetEventMap extends BookingEventMap {
  ready: { agentId: string; version: string };
  open: { agentId: string; view: View };
  close: { agentId: string; view: View };
  'message:sent': { agentId: string; id: string; text: string; conversationId?: string };
  'message:received': { agentId: string; id: string; text: string; conversationId?: string; sources: ChatSource[] };
  /** The visitor's thumb on the reply `id` (the id of its message:received). */
  'message:feedback': { agentId: string; id: string; conversationId?: string; value: Rating };
}

/** The `error` event of options that cannot be used (the console names the option). */
export const configError = (agentId: string): WidgetErrorEvent => ({
  agentId,
  scope: 'config',
  kind: 'config',
  status: 0,
  message: 'Invalid options; see the console.',
  retry: 'none',
});

/** The `error` event of the panel's file not loading (the console names the URL and the cause). */
export const panelError = (agentId: string, error: unknown): WidgetErrorEvent => ({
  agentId,
  scope: 'panel',
  kind: 'network',
  status: 0,
  message: error instanceof Error ? error.message : String(error),
  retry: 'manual',
});

export type WidgetEvent = keyof WidgetEventMap;
export type Handler<K extends WidgetEvent> = (payload: WidgetEventMap[K]) => void;

export interface Emitter {
  on<K extends WidgetEvent>(type: K, handler: Handler<K>): () => void;
  emit<K extends WidgetEvent>(type: K, payload: WidgetEventMap[K]): void;
}

export const createEmitter = (): Emitter => {
  // A fresh entry per subscription, so the same function added twice is removed once per call.
  // Stored untyped: emit() only calls an entry with its own event's payload.
  const entries = new Set<[WidgetEvent, (payload: never) => void]>();
  return {
    on(type, handler) {
      const entry: [WidgetEvent, (payload: never) => void] = [type, handler];
      entries.add(entry);
      return () => {
        entries.delete(entry);
      };
    },
    emit(type, payload) {
      for (const [on, handler] of [...entries]) {
        try {
          if (on === type) (handler as Handler<typeof type>)(payload);
        } catch (error) {
          logError(`A "${type}" event handler threw:`, error);
        }
      }
    },
  };
};
