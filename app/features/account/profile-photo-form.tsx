import { useRef, useState } from "react";
import { Form } from "react-router";

const side = 256;

interface Crop {
  /** A data: URL of the chosen file (the page's CSP allows data: images, not blob:). */
  src: string;
  width: number;
  height: number;
  /** 1 = the shorter side fills the square; up to 3 = closer. */
  zoom: number;
  /** Where the square's centre sits, 0–1 across each free direction. */
  x: number;
  y: number;
}

/**
 * 大頭貼: the current photo, a file picker and 上傳; 移除 when there is one. A plain multipart form to
 * /account/photo, so it works without JavaScript: the server then crops a centred square (storage's image
 * processing, which also strips EXIF and GPS). With JavaScript a preview shows the square that will be kept, with
 * a zoom slider and position sliders; on 上傳 the chosen square is drawn on a canvas and sent in place of the file.
 */
export function ProfilePhotoForm({ photoURL, name }: { photoURL: string | null; name: string }) {
  const [crop, setCrop] = useState<Crop | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const choose = (file: File | undefined) => {
    if (!file) return setCrop(null);
    const reader = new FileReader();
    reader.onload = () => {
      const image = new Image();
      image.onload = () => setCrop({ src: String(reader.result), width: image.naturalWidth, height: image.naturalHeight, zoom: 1, x: 0.5, y: 0.5 });
      image.onerror = () => setCrop(null);
      image.src = String(reader.result);
    };
    reader.readAsDataURL(file);
  };

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    const field = input.current;
    if (!crop || !field || typeof DataTransfer === "undefined") return;
    event.preventDefault();
    const form = event.currentTarget;
    void croppedFile(crop).then((file) => {
      if (file) {
        const list = new DataTransfer();
        list.items.add(file);
        field.files = list.files;
      }
      form.submit();
    });
  };

  const box = crop ? cropBox(crop) : null;
  return (
    <div className="card photo-card">
      <div className="photo-card__current">
        {photoURL ? <img src={photoURL} alt={`${name || "你"}的大頭貼`} width={96} height={96} className="photo-card__image" /> : <span className="photo-card__empty" aria-hidden="true">{(name || "你").slice(0, 1)}</span>}
      </div>
      <Form method="post" action="/account/photo" encType="multipart/form-data" reloadDocument className="photo-card__form" onSubmit={submit}>
        <label className="auth-field">
          <span>選擇新的大頭貼（PNG、JPEG、WebP 或 GIF）</span>
          <input ref={input} type="file" name="photo" accept="image/png,image/jpeg,image/webp,image/gif" required onChange={(event) => choose(event.currentTarget.files?.[0])} />
        </label>
        {crop && box ? (
          <div className="photo-crop">
            <div className="photo-crop__frame" role="img" aria-label="裁切預覽：方框內的部分會成為大頭貼">
              <img src={crop.src} alt="" style={{ width: `${(crop.width / box.size) * 100}%`, left: `${(-box.left / box.size) * 100}%`, top: `${(-box.top / box.size) * 100}%` }} />
            </div>
            <label>
              縮放
              <input type="range" min={1} max={3} step={0.05} value={crop.zoom} onChange={(event) => setCrop({ ...crop, zoom: Number(event.currentTarget.value) })} />
            </label>
            <label>
              左右位置
              <input type="range" min={0} max={1} step={0.01} value={crop.x} onChange={(event) => setCrop({ ...crop, x: Number(event.currentTarget.value) })} />
            </label>
            <label>
              上下位置
              <input type="range" min={0} max={1} step={0.01} value={crop.y} onChange={(event) => setCrop({ ...crop, y: Number(event.currentTarget.value) })} />
            </label>
          </div>
        ) : (
          <p className="field__hint">照片會自動裁成正方形。</p>
        )}
        <button type="submit" className="button button--primary">{photoURL ? "更換大頭貼" : "上傳大頭貼"}</button>
      </Form>
      {photoURL ? (
        <Form method="post" action="/account/photo" encType="multipart/form-data" reloadDocument>
          <input type="hidden" name="intent" value="remove" />
          <button type="submit" className="button">移除大頭貼</button>
        </Form>
      ) : null}
    </div>
  );
}

/** The kept square in the image's own pixels. */
function cropBox({ width, height, zoom, x, y }: Crop) {
  const size = Math.min(width, height) / zoom;
  return { size, left: (width - size) * x, top: (height - size) * y };
}

async function croppedFile(crop: Crop): Promise<File | null> {
  const image = new Image();
  image.src = crop.src;
  await image.decode().catch(() => undefined);
  const canvas = document.createElement("canvas");
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext("2d");
  if (!context) return null;
  const box = cropBox(crop);
  context.drawImage(image, box.left, box.top, box.size, box.size, 0, 0, side, side);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
  return blob ? new File([blob], "avatar.png", { type: "image/png" }) : null;
}
