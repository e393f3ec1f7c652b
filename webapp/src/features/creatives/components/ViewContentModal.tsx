import type { Content } from '../../../platform/api-types/creatives'
import Modal from '../../../platform/Modal'
import { CONTENT_TYPE_LABELS, readContentType, youtubeEmbedUrl } from '../contentRules'

function isPdf(content: Content): boolean {
  return /\.pdf$/i.test(content.customName || content.url)
}

/** A §2 view-content modal: the image, the video, the PDF or the YouTube video, with its details. */
export default function ViewContentModal({ content, onClose }: { content: Content | null; onClose: () => void }) {
  if (!content) return null
  const type = readContentType(content.type)
  return (
    <Modal open title={content.name} onClose={onClose} size="lg">
      <div className="space-y-4">
        {type === 'image' && <img src={content.awsUrl} alt={content.name} className="max-h-[60vh] w-full rounded-lg bg-slate-50 object-contain" />}
        {type === 'video' && (
          <video src={content.awsUrl} controls className="max-h-[60vh] w-full rounded-lg bg-black">
            <track kind="captions" />
          </video>
        )}
        {type === 'youtube' && content.youtube && (
          <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
            <iframe
              src={youtubeEmbedUrl(content.youtube)}
              title={`YouTube video: ${content.name}`}
              className="h-full w-full"
              allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
            />
          </div>
        )}
        {type === 'document' && isPdf(content) && <iframe src={content.awsUrl} title={`Document: ${content.name}`} className="h-[60vh] w-full rounded-lg border border-slate-200" />}
        {type === 'document' && (
          <a href={content.awsUrl} className="btn-secondary" download={content.customName || undefined} target="_blank" rel="noreferrer">
            Download {content.customName || 'the document'}
          </a>
        )}
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="font-medium text-slate-500">Type</dt>
          <dd>{CONTENT_TYPE_LABELS[type]}</dd>
          {content.description && (
            <>
              <dt className="font-medium text-slate-500">Description</dt>
              <dd className="whitespace-pre-line">{content.description}</dd>
            </>
          )}
          {content.tags.length > 0 && (
            <>
              <dt className="font-medium text-slate-500">Tags</dt>
              <dd>{content.tags.join(', ')}</dd>
            </>
          )}
        </dl>
      </div>
    </Modal>
  )
}
