/**
 * The one store's shape: the union of its feature slices (zustand's slices pattern).
 */
import type { StateCreator } from 'zustand';
import type { AppSlice } from './slices/appSlice.js';
import type { ApprovalsSlice } from './slices/approvalsSlice.js';
import type { BackendsSlice } from './slices/backendsSlice.js';
import type { CatalogSlice } from './slices/catalogSlice.js';
import type { ClientsSlice } from './slices/clientsSlice.js';
import type { LogSlice } from './slices/logSlice.js';
import type { PolicySlice } from './slices/policySlice.js';
import type { TrySlice } from './slices/trySlice.js';

/** Everything in the store. */
export type AppStore = AppSlice &
  BackendsSlice &
  CatalogSlice &
  PolicySlice &
  ApprovalsSlice &
  ClientsSlice &
  LogSlice &
  TrySlice;

/** A slice creator that sees the whole store. */
export type SliceCreator<Slice> = StateCreator<AppStore, [], [], Slice>;
