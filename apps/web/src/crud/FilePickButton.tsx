import { UploadOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Upload } from 'antd';
import type { ReactNode } from 'react';

/**
 * A button that picks one file and hands it to `onFile` instead of letting antd upload it (the screens send it
 * through their contract, show their own progress and answer): the month-close imports (bank return files, ITS
 * results and person lists, bureau statements, new SI bases).
 */
export function FilePickButton({
  accept,
  onFile,
  children,
  testId,
  ...button
}: { accept: string; onFile: (file: File) => unknown; children: ReactNode; testId: string } & Pick<ButtonProps, 'loading' | 'disabled' | 'size' | 'type'>) {
  return (
    <Upload
      accept={accept}
      showUploadList={false}
      beforeUpload={(f) => {
        void onFile(f);
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} {...button} data-testid={testId}>
        {children}
      </Button>
    </Upload>
  );
}
