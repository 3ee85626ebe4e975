"""Personal data (seed 004: masked before anything leaves for an external model).

``detectors`` (pure: what is personal data, where), ``checks`` (check digits), ``masking`` (pure:
typed placeholders, stable per document), ``step`` (the ``pii`` pipeline step), ``service``
(``DocumentMasker``: what chat calls before a remote model sees a document's text).
"""
