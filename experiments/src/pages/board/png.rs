//! A diagram rasterised to PNG with resvg, its labels set in DejaVu Sans carried inside the
//! program (the font the golden images of `tests/diagrams.rs` are drawn with), so a PNG is the
//! same on every machine whatever fonts it has.

use anyhow::Context;
use resvg::tiny_skia::{Pixmap, Transform};

/// DejaVu Sans (free licence: `tests/data/fonts/LICENSE`).
const DEJAVU_SANS: &[u8] = include_bytes!("../../../tests/data/fonts/DejaVuSans.ttf");

/// `svg` rendered at its own size (one pixel a user unit).
///
/// # Errors
/// SVG that does not parse, or an empty or too large image.
pub fn pixmap(svg: &str) -> anyhow::Result<Pixmap> {
    let mut opt = resvg::usvg::Options::default();
    let fonts = std::sync::Arc::make_mut(&mut opt.fontdb);
    fonts.load_font_data(DEJAVU_SANS.to_vec());
    fonts.set_sans_serif_family("DejaVu Sans");
    opt.font_family = "DejaVu Sans".into();
    let tree = resvg::usvg::Tree::from_str(svg, &opt).context("the diagram is not valid SVG")?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height())
        .with_context(|| format!("cannot draw a {}x{} image", size.width(), size.height()))?;
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// `svg` rendered as by [`pixmap`], encoded as PNG.
///
/// # Errors
/// As [`pixmap`], or the encoder's error.
pub fn png(svg: &str) -> anyhow::Result<Vec<u8>> {
    pixmap(svg)?
        .encode_png()
        .context("cannot encode the diagram as PNG")
}
