import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import DateInput from './DateInput'
import EmailInput from './EmailInput'
import MoneyInput from './MoneyInput'
import PasswordInput from './PasswordInput'
import TextInput from './TextInput'

function Text(props: { maxLength?: number; textOnly?: boolean; initial?: string }) {
  const [value, setValue] = useState(props.initial ?? '')
  return <TextInput id="name" label="Campaign name" value={value} onChange={setValue} maxLength={props.maxLength} textOnly={props.textOnly} />
}

describe('TextInput', () => {
  it('counts length/max and refuses a longer text', async () => {
    render(<Text maxLength={10} />)
    const input = screen.getByLabelText('Campaign name')
    expect(screen.getByText('0/10')).toBeInTheDocument()
    await userEvent.type(input, 'Spring sale')
    expect(screen.getByText('11/10')).toBeInTheDocument()
    expect(screen.getByText('* Please reduce your description')).toBeInTheDocument()
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription(/Please reduce your description/)
    await userEvent.type(input, '{Backspace}')
    expect(screen.queryByText('* Please reduce your description')).not.toBeInTheDocument()
    expect(input).not.toHaveAttribute('aria-invalid')
  })

  it('allows only letters, digits, dot, underscore and space in text-only mode', async () => {
    render(<Text textOnly />)
    const input = screen.getByLabelText('Campaign name')
    await userEvent.type(input, 'Summer_2026 v.2')
    expect(screen.queryByText('* No special characters allowed')).not.toBeInTheDocument()
    await userEvent.type(input, '!')
    expect(screen.getByText('* No special characters allowed')).toBeInTheDocument()
  })

  it('shows an error given by the form', () => {
    render(<TextInput id="c" label="Company" value="" onChange={() => undefined} error="Please enter your company name" />)
    expect(screen.getByLabelText('Company')).toHaveAccessibleDescription('Please enter your company name')
  })
})

describe('EmailInput', () => {
  function Email() {
    const [value, setValue] = useState('')
    return <EmailInput id="email" label="Email" value={value} onChange={setValue} />
  }

  it("says '* Invalid email address' once a bad address is left", async () => {
    render(<Email />)
    const input = screen.getByLabelText('Email')
    await userEvent.type(input, 'ann@example')
    expect(screen.queryByText('* Invalid email address')).not.toBeInTheDocument()
    await userEvent.tab()
    expect(screen.getByText('* Invalid email address')).toBeInTheDocument()
    await userEvent.type(input, '.com')
    expect(screen.queryByText('* Invalid email address')).not.toBeInTheDocument()
  })
})

describe('MoneyInput (A §5)', () => {
  function Money({ onValue }: { onValue?: (v: number | null) => void }) {
    const [value, setValue] = useState<number | null>(null)
    return (
      <MoneyInput
        id="budget"
        label="Weekly budget"
        value={value}
        onChange={(v) => {
          setValue(v)
          onValue?.(v)
        }}
        hint="Whole dollars"
      />
    )
  }

  it('shows $0 while empty', () => {
    render(<Money />)
    const input = screen.getByLabelText('Weekly budget')
    expect(input).toHaveValue('')
    expect(input).toHaveAttribute('placeholder', '0')
    expect(input.parentElement).toHaveTextContent('$')
    expect(input).toHaveAccessibleDescription('Whole dollars')
  })

  it('keeps digits only, without leading zeros', async () => {
    const onValue = vi.fn()
    render(<Money onValue={onValue} />)
    const input = screen.getByLabelText('Weekly budget')
    await userEvent.type(input, '0$1a5,0.0')
    expect(input).toHaveValue('1,500')
    expect(onValue).toHaveBeenLastCalledWith(1500)
    await userEvent.clear(input)
    expect(onValue).toHaveBeenLastCalledWith(null)
    expect(input).toHaveValue('')
    await userEvent.type(input, '000')
    expect(input).toHaveValue('')
    expect(onValue).toHaveBeenLastCalledWith(null)
  })

  it('shows the error it is given', () => {
    render(<MoneyInput id="b" label="Budget" value={20} onChange={() => undefined} error="Please enter a valid number" />)
    expect(screen.getByLabelText('Budget')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Budget')).toHaveAccessibleDescription('Please enter a valid number')
  })
})

describe('DateInput (A §5)', () => {
  // Wednesday 14 January 2026.
  const today = new Date(2026, 0, 14)

  function DateField(props: { disabledWeekdays?: number[]; min?: Date }) {
    const [value, setValue] = useState('')
    return <DateInput id="start" label="Start date" value={value} onChange={setValue} today={today} {...props} />
  }

  it('formats typed digits as mm/dd/yyyy and checks the date once left', async () => {
    render(<DateField />)
    const input = screen.getByLabelText('Start date')
    await userEvent.type(input, '01132026')
    expect(input).toHaveValue('01/13/2026')
    await userEvent.tab()
    expect(screen.getByText('* The earliest date is Jan 14, 2026')).toBeInTheDocument()
    await userEvent.clear(input)
    await userEvent.type(input, '01152026')
    expect(screen.queryByText(/earliest/)).not.toBeInTheDocument()
  })

  it('finds an empty date invalid', async () => {
    render(<DateField />)
    await userEvent.click(screen.getByLabelText('Start date'))
    await userEvent.tab()
    expect(screen.getByText('* Please enter a date')).toBeInTheDocument()
  })

  it('offers only enabled days in the calendar, and picks one', async () => {
    render(<DateField disabledWeekdays={[0, 2, 3, 4, 5, 6]} />)
    await userEvent.click(screen.getByRole('button', { name: 'Choose start date' }))
    const group = screen.getByRole('group', { name: /January 2026/ })
    expect(group).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Tuesday, January 20, 2026' })).toHaveAttribute('aria-disabled', 'true')
    expect(screen.getByRole('button', { name: 'Monday, January 12, 2026' })).toHaveAttribute('aria-disabled', 'true')
    await userEvent.click(screen.getByRole('button', { name: 'Tuesday, January 20, 2026' }))
    expect(screen.getByLabelText('Start date')).toHaveValue('')
    await userEvent.click(screen.getByRole('button', { name: 'Monday, January 19, 2026' }))
    expect(screen.getByLabelText('Start date')).toHaveValue('01/19/2026')
    expect(screen.queryByRole('group')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Choose start date' })).toHaveFocus()
  })

  it('moves through the calendar with the keyboard and closes with Escape', async () => {
    render(<DateField />)
    await userEvent.click(screen.getByRole('button', { name: 'Choose start date' }))
    expect(screen.getByRole('button', { name: 'Wednesday, January 14, 2026' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}{ArrowRight}')
    expect(screen.getByRole('button', { name: 'Thursday, January 22, 2026' })).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(screen.getByLabelText('Start date')).toHaveValue('01/22/2026')
    await userEvent.click(screen.getByRole('button', { name: 'Choose start date' }))
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('group')).not.toBeInTheDocument()
  })

  it('refuses a disabled weekday typed by hand', async () => {
    render(<DateField disabledWeekdays={[0, 2, 3, 4, 5, 6]} />)
    await userEvent.type(screen.getByLabelText('Start date'), '01202026')
    await userEvent.tab()
    expect(screen.getByText('* Please choose a Monday')).toBeInTheDocument()
  })
})

describe('PasswordInput', () => {
  it('shows and hides the password', async () => {
    function Password() {
      const [value, setValue] = useState('')
      return <PasswordInput id="pw" label="Password" value={value} onChange={setValue} />
    }
    render(<Password />)
    const input = screen.getByLabelText('Password', { selector: 'input' })
    await userEvent.type(input, 'correct horse')
    expect(input).toHaveAttribute('type', 'password')
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(input).toHaveAttribute('type', 'text')
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(input).toHaveAttribute('type', 'password')
  })
})
