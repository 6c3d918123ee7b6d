import { Component, type ReactNode } from 'react';

/**
 * A screen that fails to render shows what happened and a way out, instead of a blank window (React
 * unmounts the whole tree on an uncaught render error).
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error: Error | null; resetKey?: string }> {
  override state: { error: Error | null; resetKey?: string } = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey?: string }, state: { error: Error | null; resetKey?: string }) {
    // Moving to another screen clears the error.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="screen" role="alert">
        <h1>This screen stopped working</h1>
        <p className="error-message">{this.state.error.message}</p>
        <p className="muted">Reload the window to try again; if it happens again, run <code>fermix logs -n 50</code> and report what you did.</p>
        <button type="button" onClick={() => window.location.reload()}>Reload the window</button>
      </div>
    );
  }
}
