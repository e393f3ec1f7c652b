/**
 * The partner-profile form's one name (it was "Partner details" on /invite, "Update
 * profile" on /admin/hub and "Edit hub" on /profile, for the same form).
 */
export const PARTNER_PROFILE = 'Partner profile'

/** The button that opens it. */
export const EDIT_PARTNER_PROFILE = 'Edit partner profile'
