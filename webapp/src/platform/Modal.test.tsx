import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import Confirm from './Confirm'
import Modal from './Modal'
import { closeAllModals, openModalCount } from './modals'

function WithModal({ title = 'Edit content', nested = false }: { title?: string; nested?: boolean }) {
  const [open, setOpen] = useState(false)
  const [inner, setInner] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal
        open={open}
        title={title}
        onClose={() => setOpen(false)}
        footer={
          <button type="button" onClick={() => setOpen(false)}>
            Save
          </button>
        }
      >
        <label htmlFor="m-name">Name</label>
        <input id="m-name" />
        {nested && (
          <>
            <button type="button" onClick={() => setInner(true)}>
              Delete
            </button>
            <Confirm
              open={inner}
              title="Delete content"
              message="Are you sure you want to delete this content?"
              confirmText="Delete"
              tone="danger"
              onConfirm={() => setInner(false)}
              onCancel={() => setInner(false)}
            />
          </>
        )}
      </Modal>
    </>
  )
}

describe('Modal', () => {
  it('is a labelled modal dialog that takes the focus and gives it back', async () => {
    render(<WithModal />)
    const opener = screen.getByRole('button', { name: 'Open' })
    await userEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Edit content' })
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(opener).toHaveFocus()
  })

  it('keeps Tab inside the dialog', async () => {
    render(<WithModal />)
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    const close = screen.getByRole('button', { name: 'Close' })
    const save = screen.getByRole('button', { name: 'Save' })
    expect(close).toHaveFocus()
    await userEvent.tab()
    expect(screen.getByLabelText('Name')).toHaveFocus()
    await userEvent.tab()
    expect(save).toHaveFocus()
    await userEvent.tab()
    expect(close).toHaveFocus()
    await userEvent.tab({ shift: true })
    expect(save).toHaveFocus()
  })

  it('answers Escape only in the top-most dialog', async () => {
    render(<WithModal nested />)
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    expect(screen.getByRole('dialog', { name: 'Delete content' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog', { name: 'Delete content' })).not.toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Edit content' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete' })).toHaveFocus()
  })

  it('closes every open dialog at once', async () => {
    render(<WithModal nested />)
    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }))
    expect(openModalCount()).toBe(2)
    act(() => closeAllModals())
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(openModalCount()).toBe(0)
  })
})

describe('Confirm (A §2)', () => {
  it('shows the title, the message and the confirm text, and reports the answer', async () => {
    const onConfirm = vi.fn()
    const onCancel = vi.fn()
    render(
      <Confirm
        open
        title="Pause campaign"
        message="Are you sure you want to pause this campaign?"
        confirmText="Pause"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    )
    const dialog = screen.getByRole('dialog', { name: 'Pause campaign' })
    expect(dialog).toHaveTextContent('Are you sure you want to pause this campaign?')
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }))
    expect(onConfirm).toHaveBeenCalledTimes(1)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onCancel).toHaveBeenCalledTimes(1)
  })

  it("offers 'Confirm' when no confirm text is given", () => {
    render(<Confirm open title="Sure?" message="Really?" onConfirm={() => undefined} onCancel={() => undefined} />)
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeInTheDocument()
  })
})
