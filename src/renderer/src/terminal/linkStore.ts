import { create } from 'zustand';
import { isOpenableExternalUrl } from '../../../shared/externalLinks';

/** The link under the pointer: its target, shown in a tip near the pointer. */
export interface LinkHover {
  /** Who showed it (a pane's TerminalLinks), so only it takes the tip down. */
  source: object;
  target: string;
  /** http, https or mailto: Tandem opens it. */
  openable: boolean;
  /** The link's text names another destination: opening it asks first. */
  textDiffers: boolean;
  /** Where the pointer met the link (client coordinates). */
  x: number;
  y: number;
}

/** An open asked for a link whose text names another destination: Open or Cancel. */
export interface LinkConfirm {
  target: string;
  /** The link's text on screen. */
  text: string;
  /** Gives the keyboard back to the terminal the link is in. */
  returnFocus(): void;
}

interface LinkState {
  hover: LinkHover | undefined;
  confirm: LinkConfirm | undefined;
  showHover(hover: LinkHover): void;
  /** Takes the tip down if `source` showed it. */
  hideHover(source: object): void;
  askToOpen(confirm: LinkConfirm): void;
  /** The user's answer to the open question: the link opens only on true. Focus goes back to the terminal either way. */
  answer(open: boolean): void;
}

export const useLinkStore = create<LinkState>()((set, get) => ({
  hover: undefined,
  confirm: undefined,
  showHover: (hover) => set({ hover }),
  hideHover: (source) => {
    if (get().hover?.source === source) set({ hover: undefined });
  },
  askToOpen: (confirm) => set({ confirm, hover: undefined }),
  answer: (open) => {
    const confirm = get().confirm;
    if (!confirm) return;
    set({ confirm: undefined });
    if (open) openExternalLink(confirm.target);
    confirm.returnFocus();
  },
}));

/**
 * Hands a link to the user's browser or mail client: in Electron the main process turns the
 * new-window request into shell.openExternal; in browser mode it is a new tab. Only http,
 * https and mailto (the shared rule); no opener, no referrer.
 */
export function openExternalLink(target: string): boolean {
  if (!isOpenableExternalUrl(target)) return false;
  window.open(target, '_blank', 'noopener,noreferrer');
  return true;
}
