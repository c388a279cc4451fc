/**
 * Renders a component inside a StoreProvider over a fake client (unit tests only).
 */
import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { StoreProvider } from '../../../renderer/src/store/context.js';
import { createAppStore } from '../../../renderer/src/store/createAppStore.js';
import { createFakeClient, type FakeClient } from './fakeClient.js';

/** The rendered UI, its store and the fake client behind it. */
export interface Rendered extends RenderResult {
  client: FakeClient;
  store: ReturnType<typeof createAppStore>['store'];
}

/** Renders `ui` after letting `setup` configure the fake client; waits for the first fetches (before and after mounting). */
export async function renderWithStore(
  ui: ReactElement,
  setup: (client: FakeClient) => void = () => undefined,
): Promise<Rendered> {
  const client = createFakeClient('open');
  setup(client);
  const { store } = createAppStore(client, { coalesceMs: 1 });
  await store.getState().settled();
  const result = render(<StoreProvider store={store}>{ui}</StoreProvider>);
  // Panels that show on-demand resources (log, sessions, client apps) fetch them once mounted.
  await act(() => store.getState().settled());
  return { ...result, client, store };
}
