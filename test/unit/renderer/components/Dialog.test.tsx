// @vitest-environment jsdom
/**
 * The modal dialog: a close button and Cancel, focus moved in and trapped,
 * Escape closes, and typed edits are never lost to a click outside or Escape
 * without asking.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from '../../../../renderer/src/components/Dialog.js';

/** A dialog with one field that is dirty once typed in. */
function EditDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  return (
    <Dialog title="Edit thing" onClose={onClose} dirty={name !== ''} cancel>
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      <button type="button" className="primary">
        Save
      </button>
    </Dialog>
  );
}

function renderDialog() {
  const onClose = vi.fn();
  const opener = document.createElement('button');
  opener.textContent = 'Open';
  document.body.append(opener);
  opener.focus();
  const view = render(<EditDialog onClose={onClose} />);
  return { onClose, opener, view };
}

const backdrop = () => screen.getByRole('dialog', { name: 'Edit thing' }).parentElement as HTMLElement;

describe('Dialog', () => {
  afterEach(() => {
    cleanup();
    document.body.replaceChildren();
  });

  it('moves focus to its first field, keeps Tab inside, and gives focus back when closed', async () => {
    const user = userEvent.setup();
    const { opener, view } = renderDialog();
    const field = screen.getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(field);
    await user.tab(); // Save
    await user.tab(); // Cancel (the last)
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await user.tab(); // wraps to the close button, the first
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close dialog' }));
    await user.tab({ shift: true }); // and back to the last
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    view.unmount();
    expect(document.activeElement).toBe(opener);
  });

  it('closes on Escape, a click outside, Cancel and the close button when nothing was typed', async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog();
    await user.keyboard('{Escape}');
    fireEvent.mouseDown(backdrop());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Close dialog' }));
    expect(onClose).toHaveBeenCalledTimes(4);
  });

  it('asks before a click outside or Escape throws typed edits away', async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'draft');
    fireEvent.mouseDown(backdrop());
    expect(onClose).not.toHaveBeenCalled();
    const ask = screen.getByRole('alert');
    expect(ask.textContent).toContain('Discard your changes?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep editing' }));
    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'draft');
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes a dirty dialog at once on Cancel, which is meant', async () => {
    const user = userEvent.setup();
    const { onClose } = renderDialog();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'x');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
