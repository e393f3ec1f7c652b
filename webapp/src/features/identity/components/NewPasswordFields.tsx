import PasswordInput from '../../../platform/inputs/PasswordInput'
import { passwordError } from '../../../platform/inputs/passwordRules'

export const MSG_PASSWORDS_DIFFER = 'The passwords do not match'

export type NewPasswordErrors = { password?: string; confirm?: string }

/** The rules of a new password and its confirmation; empty when both are fine. */
export function newPasswordErrors(password: string, confirm: string): NewPasswordErrors {
  return {
    password: passwordError(password) ?? undefined,
    confirm: confirm !== password ? MSG_PASSWORDS_DIFFER : undefined,
  }
}

/** A new password typed twice: the reset form and the change-password modal. */
export default function NewPasswordFields(props: {
  idPrefix: string
  password: string
  confirm: string
  onPassword: (value: string) => void
  onConfirm: (value: string) => void
  errors: NewPasswordErrors
}) {
  return (
    <>
      <PasswordInput
        id={`${props.idPrefix}-password`}
        label="New password"
        value={props.password}
        onChange={props.onPassword}
        error={props.errors.password}
        autoComplete="new-password"
        hint="At least 12 characters."
        required
      />
      <PasswordInput
        id={`${props.idPrefix}-confirm`}
        label="Confirm new password"
        value={props.confirm}
        onChange={props.onConfirm}
        error={props.errors.confirm}
        autoComplete="new-password"
        required
      />
    </>
  )
}
