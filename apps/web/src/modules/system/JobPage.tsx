import { jobResource } from '@app/shared/resources/job';
import { useTranslation } from 'react-i18next';
import ResourcePage from '../../crud/ResourcePage';

/** Positions (岗位): the generic page plus the department column ('上级 / 部门'). */
export default function JobPage() {
  const { t } = useTranslation('system');
  return (
    <ResourcePage
      resource={jobResource}
      columns={(cols) => {
        const dept = {
          key: 'dept',
          title: t('job.dept'),
          width: 200,
          render: (_: unknown, row: Record<string, any>) => {
            const name = row.dept?.name ?? '';
            return row.deptSuperiorName ? `${row.deptSuperiorName} / ${name}` : name;
          },
        };
        const i = cols.findIndex((c) => c.key === 'sort');
        return [...cols.slice(0, Math.max(1, i)), dept, ...cols.slice(Math.max(1, i))];
      }}
    />
  );
}
