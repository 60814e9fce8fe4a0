// A plan's Onload profile on its way to a host: the profile and the workspace profiles it imports
// (profileBundle.ts), each checked to come from a trusted folder (pathConfinement.ts) and to look
// like a profile (fileShape.ts) before anything is sent, then uploaded with mode 644: a profile
// holds no secret, and the user the server runs as must read it (server/serviceProfiles.ts).
import { EngineFailure } from '../errors';
import type { RemoteSession } from '../remote/ssh';
import { profileShapeProblem } from './fileShape';
import { checkLocalPath, resolveLocal, type PathPolicy } from './pathConfinement';
import { bundleProfile, type ProfileBundle } from './profileBundle';

export interface ProfileUploadContext {
  planDir: string;
  pathPolicy: PathPolicy;
  /** Folders searched for `onload_import NAME` after the importing profile's folder. */
  profilePath: string[];
  signal?: AbortSignal;
  log: (level: 'info', message: string) => void;
}

/**
 * Uploads `profile` (a plan path) for `remotePath`, its imports beside it, rewritten so the
 * launcher finds those copies; `uploadPath` maps a remote path to where it is uploaded (a staging
 * folder for the service's profiles).
 */
export async function uploadProfile(
  session: RemoteSession,
  profile: string,
  remotePath: string,
  context: ProfileUploadContext,
  uploadPath: (remotePath: string) => string = (path) => path,
): Promise<void> {
  const localPath = resolveLocal(context.planDir, profile);
  let bundle: ProfileBundle;
  try {
    bundle = await bundleProfile(localPath, remotePath, context.profilePath);
  } catch (error) {
    throw new EngineFailure({
      code: 'upload',
      host: session.host,
      step: 'upload-profile',
      message: `Cannot prepare the profile ${localPath} for upload: ${(error as Error).message}.`,
      action: 'Check the profile and the files it imports (onload_import) in the editor.',
    });
  }
  for (const file of bundle.files) {
    // imports too: each file uploaded must come from a trusted folder and look like a profile
    checkLocalPath(
      file.localPath,
      file.localPath === localPath ? profile : `onload_import in ${profile}`,
      context.planDir,
      context.pathPolicy,
    );
    const problem = profileShapeProblem(file.content);
    if (problem)
      throw new EngineFailure({
        code: 'upload',
        host: session.host,
        step: 'upload-profile',
        message: `${file.localPath} does not look like an Onload profile: ${problem}. It was not uploaded.`,
        action: 'Point the plan (stacks[].profile, runUnderOnload) and onload_import at Onload profiles.',
      });
  }
  // 644: no secret in a profile, and a foreground command that switches user (sudo -u couchbase)
  // must read it; who may enter the folder is the work folder's business (serviceProfiles.ts)
  for (const file of bundle.files)
    await session.upload(uploadPath(file.remotePath), file.content, {
      step: 'upload-profile',
      mode: '644',
      ...(context.signal ? { signal: context.signal } : {}),
    });
  const imported = bundle.files.slice(1).map((file) => file.localPath);
  if (imported.length > 0)
    context.log('info', `${session.host}: ${profile} imports ${imported.join(', ')}: uploaded beside it.`);
  if (bundle.standardImports.length > 0)
    context.log(
      'info',
      `${session.host}: ${profile} imports Onload's own profile(s) ${bundle.standardImports.join(', ')}: left to the server's Onload.`,
    );
}
