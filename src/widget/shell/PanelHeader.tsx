// The panel's header: the owner's avatar and title, New conversation, and Close in bubble mode.
import type { Strings } from '../i18n';
import { Icon } from '../platform/Icon';

interface PanelHeaderProps {
  title: string;
  avatar: string | undefined;
  strings: Strings;
  onNewConversation: () => void;
  /** Bubble mode only: an inline panel has nothing to close. */
  onClose: (() => void) | undefined;
}

function hideBrokenImage(event: { currentTarget: HTMLImageElement }): void {
  event.currentTarget.hidden = true;
}

export function PanelHeader({ title, avatar, strings, onNewConversation, onClose }: PanelHeaderProps) {
  return (
    <div class="header" part="header">
      {/* Decorative: the title names the panel. A broken image hides rather than showing its icon. */}
      {avatar && <img class="avatar" part="avatar" src={avatar} alt="" onError={hideBrokenImage} />}
      {/* The panel's name (App's aria-labelledby) and its top heading: each view's sections are h3 under it. */}
      <h2 id="panel-title" class="title">
        <bdi>{title}</bdi>
      </h2>
      {/* Labelled, not a bare "+"; where the label would squeeze the title, the icon alone, named by it (shell.css). */}
      <button type="button" class="icon new" onClick={onNewConversation}>
        <Icon name="new" />
        <span>{strings.newConversation}</span>
      </button>
      {/* Named by its tooltip alone: an aria-label equal to the title is read twice (name, then description). */}
      {onClose && (
        <button type="button" class="icon" title={strings.close} onClick={onClose}>
          <Icon name="close" />
        </button>
      )}
    </div>
  );
}
