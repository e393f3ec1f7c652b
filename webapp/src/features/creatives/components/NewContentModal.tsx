import { useId, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { MsgContentSaved, MsgSaveFailed, MsgUploadContent, MsgYoutubeLink } from '../../../platform/api-types/creatives'
import { flashShown } from '../../../platform/flash/flash'
import { compactErrors, useFocusFirstInvalid } from '../../../platform/forms'
import TextInput from '../../../platform/inputs/TextInput'
import type { UploadedFile } from '../../../platform/uploader/sendFiles'
import Uploader from '../../../platform/uploader/Uploader'
import { useCreateContentMutation, useUpdateContentMutation } from '../api'
import { contentTypeOfFile, SCOPES, youtubeIdFromLink, type ContentType, type Scope } from '../contentRules'
import { ScopeFieldset, scopeError, TagsInput, TypeSelect } from './ContentFields'
import FormModal from './FormModal'

type Errors = Partial<Record<'file' | 'name' | 'youtube' | 'scopes', string>>

/**
 * A §2 new-content modal (admins): upload a file, or paste a YouTube link, then name, scope, tags
 * and description. Saving before the upload says 'Sorry! you must first upload your content' (A §5).
 */
export default function NewContentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return open ? <NewContentDialog onClose={onClose} /> : null
}

function NewContentDialog({ onClose }: { onClose: () => void }) {
  const ids = useId()
  const dispatch = useDispatch()
  const [type, setType] = useState<ContentType>('image')
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null)
  const [uploadedType, setUploadedType] = useState<ContentType | null>(null)
  const [name, setName] = useState('')
  const [youtube, setYoutube] = useState('')
  const [scopes, setScopes] = useState<Scope[]>([...SCOPES])
  const [tags, setTags] = useState<string[]>([])
  const [description, setDescription] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [create, creation] = useCreateContentMutation()
  const [update, updating] = useUpdateContentMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()
  const busy = creation.isLoading || updating.isLoading
  const isYoutube = type === 'youtube'

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy || (uploading && !isYoutube)) return // a save mid-upload waits for the file (the dropzone shows its progress)
    setFailure(null)
    const found = compactErrors({
      file: !isYoutube && !uploaded ? MsgUploadContent : null,
      youtube: isYoutube && !youtubeIdFromLink(youtube) ? MsgYoutubeLink : null,
      name: name.trim() ? null : 'Please give the content a name',
      scopes: scopeError(scopes),
    })
    setErrors(found)
    if (Object.keys(found).length) {
      focusInvalid()
      return
    }
    try {
      const saved = await create({
        type: isYoutube ? 'youtube' : (uploadedType ?? type),
        content: { name: name.trim(), alt: name.trim(), url: isYoutube ? '' : uploaded!.path },
        scopes,
        tags,
        youtube: isYoutube ? youtube.trim() : '',
      }).unwrap()
      // The create call of A §7 has no description: it is saved right after, like an edit.
      if (description.trim()) {
        await update({ id: saved.id, name: saved.name, type: saved.type, scopes, tags, status: saved.status, description: description.trim() }).unwrap()
      }
      dispatch(flashShown(MsgContentSaved, 'success'))
      onClose()
    } catch {
      setFailure(MsgSaveFailed)
    }
  }

  return (
    <FormModal title="New content" formId="new-content-form" submitLabel="Save content" busy={busy} failure={failure} formRef={ref} onSubmit={onSubmit} onClose={onClose}>
      <TypeSelect
        id={`${ids}-type`}
        value={type}
        onChange={(next) => {
          setType(next)
          setErrors({})
        }}
      />
      {isYoutube ? (
        <TextInput
          id={`${ids}-youtube`}
          label="YouTube link"
          type="url"
          inputMode="url"
          value={youtube}
          onChange={setYoutube}
          placeholder="https://www.youtube.com/watch?v=…"
          error={errors.youtube}
          required
        />
      ) : (
        <Uploader
          kind="content"
          url="/upload_file"
          label="Content file"
          error={errors.file}
          paramsFor={(files) => ({ type: contentTypeOfFile(files[0]?.type ?? '') })}
          onSettled={() => setUploading(false)}
          onStart={(files) => {
            setUploading(true)
            setUploaded(null)
            const detected = contentTypeOfFile(files[0]?.type ?? '')
            setUploadedType(detected)
            setType(detected)
          }}
          onUploaded={(files) => {
            const file = files[0] ?? null
            setUploaded(file)
            setErrors((e) => ({ ...e, file: undefined }))
            if (file && !name.trim()) setName(file.originalname.replace(/\.[^.]+$/, '').slice(0, 100))
          }}
        />
      )}
      <TextInput id={`${ids}-name`} label="Name" value={name} onChange={setName} maxLength={100} error={errors.name} required />
      <ScopeFieldset scopes={scopes} onChange={setScopes} error={errors.scopes} />
      <TagsInput id={`${ids}-tags`} tags={tags} onChange={setTags} />
      <TextInput id={`${ids}-description`} label="Description" value={description} onChange={setDescription} maxLength={500} multiline rows={3} optional />
    </FormModal>
  )
}
