"""A campaign in one file for a repository deposit, and the proof that its numbers hold.

``appendix archive`` (or ``appendix build --archive FILE``) packs, into one ``.tar.gz``
(``pack``): the inputs as the build read them, the site it published, and a manifest (every
file with its SHA-256, the software and its dependencies' versions, the build date, the
config), with the archive's own SHA-256 in a file beside it, as a DOI deposit asks. The same
inputs and build date give the same bytes.

``appendix verify`` (``verify``) opens an archive or a published site (``deposit``), checks
every file against its recorded SHA-256, evaluates the campaign again from the archived
inputs (``rebuild``) and compares every published number of every score table and download
with the new ones (``numbers``).

A layer above ``builder.building``: verifying runs the build.
"""
