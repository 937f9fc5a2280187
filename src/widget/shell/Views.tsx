// The three views as tab panels. A view is drawn once first shown and kept while hidden, so a half-done
// booking survives a switch to the chat and back.
import { BookingView, LookupView, type BookingStores } from '../booking';
import { ChatView } from '../chat/ChatView';
import type { Chat } from '../chat/store';
import type { Strings } from '../i18n';
import { VIEWS, type ResolvedOptions, type View } from '../options/options';
import type { PanelOptions } from '../options/panel-options';
import type { Shell } from './shell';

interface ViewsProps {
  shell: Shell;
  chat: () => Chat;
  strings: Strings;
  title: string;
  options: ResolvedOptions;
  panelOptions: PanelOptions;
  booking: BookingStores;
  now: () => number;
}

interface ViewContentProps extends ViewsProps {
  view: View;
  /** Open and on this view. */
  visible: boolean;
}

function ViewContent({ view, visible, shell, chat, strings, title, options, panelOptions, booking, now }: ViewContentProps) {
  // Every open the visitor or the page's code makes is a focus request; page memory's open is not (./page-memory).
  const asked = () => shell.focusRequest.peek() > 0;
  switch (view) {
    case 'chat':
      return (
        <ChatView
          chat={chat()}
          strings={strings}
          title={title}
          greeting={panelOptions.greeting ?? strings.defaultGreeting}
          locale={options.locale}
          now={now}
          visible={visible}
          openBooking={() => shell.open('booking')}
          starters={panelOptions.starters}
        />
      );
    case 'booking':
      return <BookingView stores={booking} strings={strings} asked={asked} />;
    case 'lookup':
      return (
        <LookupView
          stores={booking}
          strings={strings}
          asked={asked}
          openBooking={() => shell.open('booking')}
          openChat={() => shell.open('chat')}
        />
      );
  }
}

export function Views(props: ViewsProps) {
  const { shell } = props;
  const current = shell.view.value;
  const visited = shell.visited.value;
  const isOpen = shell.isOpen.value;
  // VIEWS never changes: the views need no keys, Preact matches them by position.
  return (
    <>
      {VIEWS.map((view) => (
        <div id={`view-${view}`} class="view" role="tabpanel" aria-labelledby={`tab-${view}`} hidden={view !== current}>
          {visited.has(view) && <ViewContent {...props} view={view} visible={isOpen && view === current} />}
        </div>
      ))}
    </>
  );
}
