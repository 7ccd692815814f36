import { BoldOutlined, ItalicOutlined, LinkOutlined, OrderedListOutlined, PictureOutlined, UnderlineOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Space, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/feedback';

/** Largest picture put into a message (the server caps the whole message at 7 MB). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * A small rich-text editor for the e-mail body (no editor package): a contentEditable area with a toolbar for
 * bold, italic, underline, lists, links and pictures. Pictures are read as data: URLs; the server checks their
 * bytes and sends them as inline (cid:) attachments. The server also sanitises the HTML whatever this sends.
 */
export function RichTextEditor({ value, onChange, placeholder }: { value?: string; onChange?: (html: string) => void; placeholder?: string }) {
  const { t } = useTranslation('integrations');
  const area = useRef<HTMLDivElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const saved = useRef<Range | null>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [link, setLink] = useState('https://');

  // Outside changes (form reset) replace the content; typing does not re-render it.
  useEffect(() => {
    const el = area.current;
    if (el && (value ?? '') !== el.innerHTML) el.innerHTML = value ?? '';
  }, [value]);

  const emit = () => onChange?.(area.current?.innerHTML ?? '');
  const remember = () => {
    const sel = window.getSelection();
    if (sel && sel.rangeCount > 0 && area.current?.contains(sel.getRangeAt(0).commonAncestorContainer)) saved.current = sel.getRangeAt(0).cloneRange();
  };
  // The caret as the user leaves it (typing, IME input, clicks, arrow keys): toolbar buttons act there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: remember reads refs only
  useEffect(() => {
    document.addEventListener('selectionchange', remember);
    return () => document.removeEventListener('selectionchange', remember);
  }, []);
  const restore = () => {
    area.current?.focus();
    const sel = window.getSelection();
    if (saved.current && sel) {
      sel.removeAllRanges();
      sel.addRange(saved.current);
    }
  };
  const exec = (command: string, arg?: string) => {
    restore();
    // execCommand is deprecated but still the only editing primitive every browser implements for contentEditable
    document.execCommand(command, false, arg);
    remember();
    emit();
  };

  const insertImage = (f: File) => {
    if (!IMAGE_TYPES.includes(f.type)) {
      notify.error(t('email.imageType'));
      return;
    }
    if (f.size > MAX_IMAGE_BYTES) {
      notify.error(t('email.imageSize'));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => exec('insertImage', String(reader.result));
    reader.readAsDataURL(f);
  };

  const tools: [string, React.ReactNode, () => void][] = [
    ['bold', <BoldOutlined key="b" />, () => exec('bold')],
    ['italic', <ItalicOutlined key="i" />, () => exec('italic')],
    ['underline', <UnderlineOutlined key="u" />, () => exec('underline')],
    ['ol', <OrderedListOutlined key="ol" />, () => exec('insertOrderedList')],
    ['ul', <UnorderedListOutlined key="ul" />, () => exec('insertUnorderedList')],
    [
      'link',
      <LinkOutlined key="a" />,
      () => {
        remember();
        setLink('https://');
        setLinkOpen(true);
      },
    ],
    [
      'image',
      <PictureOutlined key="img" />,
      () => {
        remember();
        file.current?.click();
      },
    ],
  ];

  return (
    <div className="rte" data-testid="email-editor">
      <Space size={2} className="rte-toolbar" wrap>
        {tools.map(([name, icon, run]) => (
          <Tooltip key={name} title={t(`editor.${name}`)}>
            <Button type="text" size="small" icon={icon} aria-label={t(`editor.${name}`)} data-testid={`rte-${name}`} onMouseDown={(e) => e.preventDefault()} onClick={run} />
          </Tooltip>
        ))}
      </Space>
      <div
        ref={area}
        className="rte-area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        tabIndex={0}
        data-placeholder={placeholder}
        data-testid="email-content"
        onInput={emit}
        onBlur={() => {
          remember();
          emit();
        }}
        suppressContentEditableWarning
      />
      <input
        ref={file}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        style={{ display: 'none' }}
        data-testid="rte-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) insertImage(f);
          e.target.value = '';
        }}
      />
      <Modal
        open={linkOpen}
        title={t('editor.link')}
        width={500}
        onCancel={() => setLinkOpen(false)}
        onOk={() => {
          setLinkOpen(false);
          if (/^(https?:\/\/|mailto:)/i.test(link.trim())) exec('createLink', link.trim());
          else notify.warning(t('editor.linkInvalid'));
        }}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Input value={link} onChange={(e) => setLink(e.target.value)} data-testid="rte-link-input" />
      </Modal>
    </div>
  );
}
