/**
 * The render-crash screen (docs/rules.md, Error screen) for islands. The pages themselves are static
 * HTML and cannot crash in the browser; an island can (bad data, a browser
 * without some API). When one does, its place shows the same message and
 * reload button as /500 instead of vanishing or leaving dead controls, and the
 * rest of the page keeps working.
 */
import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import type { MessageKey } from '../i18n/t.ts';

export const CRASH_MESSAGES = ['error.title', 'error.text', 'error.reload'] as const satisfies readonly MessageKey[];
type CrashMessages = Record<(typeof CRASH_MESSAGES)[number], string>;

interface BoundaryProps {
  messages: CrashMessages;
  children: ReactNode;
}

class CrashBoundary extends Component<BoundaryProps, { crashed: boolean }> {
  override state = { crashed: false };

  static getDerivedStateFromError(): { crashed: boolean } {
    return { crashed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for whoever reports the problem; the visitor sees the screen below.
    console.error('island crashed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.crashed) return this.props.children;
    const m = this.props.messages;
    return (
      <div className="island-crash" role="alert">
        <p className="island-crash__title">{m['error.title']}</p>
        <p>{m['error.text']}</p>
        <button type="button" className="button" onClick={() => location.reload()}>
          {m['error.reload']}
        </button>
      </div>
    );
  }
}

/** Wraps an island so that a crash inside it shows the crash screen in its place. */
export function withCrashScreen<P extends { messages: CrashMessages }>(Island: ComponentType<P>): ComponentType<P> {
  function Guarded(props: P) {
    return (
      <CrashBoundary messages={props.messages}>
        <Island {...props} />
      </CrashBoundary>
    );
  }
  Guarded.displayName = `withCrashScreen(${Island.displayName ?? Island.name})`;
  return Guarded;
}
