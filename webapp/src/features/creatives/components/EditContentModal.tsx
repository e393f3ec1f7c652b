import { useId, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { MsgContentSaved, MsgSaveFailed, type Content } from '../../../platform/api-types/creatives'
import { flashShown } from '../../../platform/flash/flash'
import { compactErrors, useFocusFirstInvalid } from '../../../platform/forms'
import Field from '../../../platform/inputs/Field'
import TextInput from '../../../platform/inputs/TextInput'
import { useUpdateContentMutation } from '../api'
import { readContentType, SCOPES, type ContentStatus, type ContentType, type Scope } from '../contentRules'
import { ScopeFieldset, scopeError, TagsInput, TypeSelect } from './ContentFields'
import FormModal from './FormModal'

type Errors = Partial<Record<'name' | 'scopes', string>>

/** A §2 edit-content modal (admins): name, type, scope, tags, status and description (PUT, A §7). */
export default function EditContentModal({ content, onClose }: { content: Content | null; onClose: () => void }) {
  return content ? <EditContentDialog key={content.id} content={content} onClose={onClose} /> : null
}

function EditContentDialog({ content, onClose }: { content: Content; onClose: () => void }) {
  const ids = useId()
  const dispatch = useDispatch()
  const [name, setName] = useState(content.name)
  const [type, setType] = useState<ContentType>(readContentType(content.type))
  const [scopes, setScopes] = useState<Scope[]>(SCOPES.filter((s) => content.scope.includes(s)))
  const [tags, setTags] = useState<string[]>(content.tags ?? [])
  const [status, setStatus] = useState<ContentStatus>(content.status === 'inactive' ? 'inactive' : 'active')
  const [description, setDescription] = useState(content.description ?? '')
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [update, { isLoading }] = useUpdateContentMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setFailure(null)
    const found = compactErrors({ name: name.trim() ? null : 'Please give the content a name', scopes: scopeError(scopes) })
    setErrors(found)
    if (Object.keys(found).length) {
      focusInvalid()
      return
    }
    try {
      await update({ id: content.id, name: name.trim(), type, scopes, tags, status, description: description.trim() }).unwrap()
      dispatch(flashShown(MsgContentSaved, 'success'))
      onClose()
    } catch {
      setFailure(MsgSaveFailed)
    }
  }

  return (
    <FormModal title="Edit content" formId="edit-content-form" submitLabel="Save changes" busy={isLoading} failure={failure} formRef={ref} onSubmit={onSubmit} onClose={onClose}>
      <TextInput id={`${ids}-name`} label="Name" value={name} onChange={setName} maxLength={100} error={errors.name} required />
      <div className="grid gap-5 sm:grid-cols-2">
        <TypeSelect id={`${ids}-type`} value={type} onChange={setType} />
        <Field id={`${ids}-status`} label="Status">
          <select id={`${ids}-status`} className="field-input" value={status} onChange={(e) => setStatus(e.target.value as ContentStatus)}>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </Field>
      </div>
      <ScopeFieldset scopes={scopes} onChange={setScopes} error={errors.scopes} />
      <TagsInput id={`${ids}-tags`} tags={tags} onChange={setTags} />
      <TextInput id={`${ids}-description`} label="Description" value={description} onChange={setDescription} maxLength={500} multiline rows={3} optional />
    </FormModal>
  )
}
